import { and, asc, gt, inArray, isNotNull, isNull, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { conversations, eventOutbox } from "../db/schema";
import { inSlices } from "../lib/bind-limit";

/** An id usable inside a batch: a number, or SQL naming a row an earlier statement wrote. */
export type IdRef = number | SQL;

export type OutboxInsert = {
  accountId: number;
  name: string;
  /** The conversation the event belongs to (it gets the next conversation_seq), or none. */
  conversation: IdRef | null;
  payload: Record<string, unknown>;
  /** Payload ids only the batch knows, e.g. the id of a message it inserts. */
  refs: Record<string, SQL>;
  createdAt: number;
  /** Write only if the statement just before this one changed a row (a conditional update). */
  ifChanged: boolean;
};

const payloadSql = (e: OutboxInsert) =>
  Object.entries(e.refs).reduce<SQL>(
    (json, [key, ref]) => sql`json_set(${json}, ${`$.${key}`}, ${ref})`,
    sql`${JSON.stringify(e.payload)}`,
  );

/**
 * The statements recording one event, to append to the batch of the change itself. A
 * conversation's event first bumps its counter, then copies it into the row, so
 * conversation_seq is allocated inside the batch (no read-then-write across requests).
 * `changes()` chains the guard: each statement runs only if the one before changed a row.
 */
export function outboxStatements(db: Db, e: OutboxInsert) {
  const guard = e.ifChanged ? sql` AND changes() > 0` : sql``;
  const payload = payloadSql(e);
  // The SELECT lists every column in table order (id NULL: autoincrement; sent_at and done_at
  // NULL).
  if (e.conversation === null) {
    return [
      db
        .insert(eventOutbox)
        .select(
          sql`SELECT NULL, ${e.accountId}, ${e.name}, NULL, NULL, ${payload}, ${e.createdAt}, NULL,
            NULL WHERE 1${guard}`,
        )
        .returning({ id: eventOutbox.id }),
    ];
  }
  return [
    db
      .update(conversations)
      .set({ eventSeq: sql`${conversations.eventSeq} + 1` })
      .where(sql`${conversations.id} = ${e.conversation}${guard}`),
    db
      .insert(eventOutbox)
      .select(
        sql`SELECT NULL, ${e.accountId}, ${e.name}, c.id, c.event_seq, ${payload}, ${e.createdAt}, NULL,
          NULL FROM ${conversations} c WHERE c.id = ${e.conversation}${guard}`,
      )
      .returning({ id: eventOutbox.id }),
  ];
}

export const findOutboxRows = (db: Db, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.select().from(eventOutbox).where(inArray(eventOutbox.id, ids)).all();

export const markSent = (db: Db, ids: number[], at: number) =>
  db.update(eventOutbox).set({ sentAt: at }).where(inArray(eventOutbox.id, ids));

/** The consumer ran these events' listeners (in slices: D1 binds 100 values a statement). */
export const markDone = (db: Db, ids: number[], at: number) =>
  Promise.all(
    inSlices(ids).map((slice) =>
      db.update(eventOutbox).set({ doneAt: at }).where(inArray(eventOutbox.id, slice)),
    ),
  );

/** The oldest outbox rows matching `where`, at most `limit`, by id. */
async function oldestIds(db: Db, where: SQL | undefined, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: eventOutbox.id })
    .from(eventOutbox)
    .where(where)
    .orderBy(asc(eventOutbox.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Rows whose relay did not happen (the request died, or the queue refused the send). */
export const unsentIds = (db: Db, createdBefore: number, limit: number) =>
  oldestIds(db, and(isNull(eventOutbox.sentAt), lte(eventOutbox.createdAt, createdBefore)), limit);

/**
 * Rows relayed before `sentBefore` whose listeners never ran (their queue message was lost, or
 * the queue gave up on it), created after `createdAfter` (an event failing for good is given up
 * on after a few rounds).
 */
export const undoneIds = (db: Db, sentBefore: number, createdAfter: number, limit: number) =>
  oldestIds(
    db,
    and(
      isNull(eventOutbox.doneAt),
      lte(eventOutbox.sentAt, sentBefore),
      gt(eventOutbox.createdAt, createdAfter),
    ),
    limit,
  );

/** Relayed rows are kept a while for inspection, then dropped (deliveries keep their body). */
export const pruneSent = (db: Db, sentBefore: number) =>
  db
    .delete(eventOutbox)
    .where(and(isNotNull(eventOutbox.sentAt), lte(eventOutbox.sentAt, sentBefore)));
