import { and, eq, inArray, isNotNull, isNull, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { AUTO_RESOLVE_AFTER, accounts, conversations } from "../../db/schema";

const IGNORE_WAITING = sql.raw(`json_extract("settings", '$.auto_resolve_ignore_waiting')`);

/** The deadline of an account's auto-resolve, as SQL: idle since before it means due. */
const cutoff = (now: number) => sql`${now} - ${AUTO_RESOLVE_AFTER} * 60`;

/**
 * Open conversations idle past their account's `auto_resolve_after`, read through indexes only:
 * the accounts that set it (a partial index on their id), then per account the open
 * conversations by last activity (`conversations_account_status_activity`), or, for accounts
 * that leave waiting conversations alone, only the open ones nobody waits on
 * (`conversations_open_not_waiting`), so a backlog of waiting conversations is never read again
 * each minute. CROSS JOIN keeps accounts the outer loop (SQLite never reorders it), in id order
 * from `after` (exclusive) to `upTo` (inclusive), each account's deadline bounding an index
 * range of its conversations; the index is named because without statistics SQLite would pick
 * the wider one even where the partial one reads less. Answers the conversations' ids, event_seq
 * (the version a change of the conversation bumps, which the consumer's write requires
 * unchanged) and account.
 */
export function dueForAutoResolve(now: number, limit: number, after = 0, upTo?: number) {
  const variant = (ignoreWaiting: boolean, index: string) => sql`
    SELECT c.id AS id, c.event_seq AS seq, c.account_id AS account
    FROM ${accounts} CROSS JOIN ${conversations} AS c INDEXED BY ${sql.raw(index)}
    WHERE c.account_id = ${accounts.id} AND ${AUTO_RESOLVE_AFTER} IS NOT NULL
      AND ${accounts.id} > ${after} ${upTo === undefined ? sql`` : sql`AND ${accounts.id} <= ${upTo}`}
      AND ${ignoreWaiting ? sql`${IGNORE_WAITING} = 1` : sql`${IGNORE_WAITING} IS NOT 1`}
      AND c.status = 'open' ${ignoreWaiting ? sql`AND c.waiting_since IS NULL` : sql``}
      AND c.last_activity_at <= ${cutoff(now)}
    LIMIT ${limit}`;
  return {
    all: variant(false, "conversations_account_status_activity"),
    notWaiting: variant(true, "conversations_open_not_waiting"),
  };
}

/** What `dueForAutoResolve` answers. */
export type DueRow = { id: number; seq: number; account: number };

export const dueRows = (db: Db, query: SQL) => db.all<DueRow>(query);

/** The conversations with these ids, with their accounts (primary-key reads). */
export async function withAccounts(db: Db, ids: number[]) {
  const rows = [];
  // D1 binds at most 100 parameters per statement.
  for (let i = 0; i < ids.length; i += 90) {
    rows.push(
      ...(await db
        .select({ account: accounts, conversation: conversations })
        .from(conversations)
        .innerJoin(accounts, eq(accounts.id, conversations.accountId))
        .where(inArray(conversations.id, ids.slice(i, i + 90)))),
    );
  }
  return rows;
}

/**
 * Snoozed conversations whose time has come, by their wake-up time (a partial index), as the
 * same [id, event_seq] pairs.
 */
export const dueToWake = (db: Db, now: number, limit: number) =>
  db
    .select({ id: conversations.id, seq: conversations.eventSeq })
    .from(conversations)
    .where(
      and(
        isNotNull(conversations.snoozedUntil),
        lte(conversations.snoozedUntil, now),
        eq(conversations.status, "snoozed"),
      ),
    )
    .limit(limit);

/**
 * The condition that keeps an auto-resolve from acting on a conversation that moved since the
 * tick read it: still due, and no change recorded since (`seq`, its event_seq then). A second
 * delivery of the same batch, or a resolve and reopen in between, finds a newer event_seq.
 */
export const stillIdle = (now: number, minutes: number, ignoreWaiting: boolean, seq: number) =>
  and(
    eq(conversations.eventSeq, seq),
    eq(conversations.status, "open"),
    lte(conversations.lastActivityAt, now - minutes * 60),
    ignoreWaiting ? isNull(conversations.waitingSince) : undefined,
  ) as SQL;

/** The same for a wake-up: unchanged, still snoozed, and still until a time that has come. */
export const stillSnoozed = (now: number, seq: number) =>
  and(
    eq(conversations.eventSeq, seq),
    eq(conversations.status, "snoozed"),
    lte(conversations.snoozedUntil, now),
  ) as SQL;
