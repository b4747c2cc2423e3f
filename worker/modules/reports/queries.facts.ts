import { fillPlaceholders, placeholder, type SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { agentBotInboxes, eventOutbox, labels, messages, reportingEvents } from "../../db/schema";
import type { IdRef } from "../../events/types";
import { businessClock } from "./queries.calendar";

/**
 * One reporting fact as INSERT … SELECT over the conversation `c` (and the message `m` for
 * message facts), so it reads the rows as the batch left them and is written only when `where`
 * holds. `start`/`end` are SQL over those rows; value = end − start, and its business-hours
 * twin is the difference of the inbox's business clock at both ends.
 */
export type Fact = {
  name: string;
  /** A number, or SQL over the FROM (a log writer's row names its account). */
  accountId: number | SQL;
  /** FROM … WHERE … naming `c` (conversations) and optionally `m` (messages). */
  from: SQL;
  start: SQL;
  end: SQL;
  user: SQL;
  /** conversation_labelled: the label added. */
  label?: SQL;
};

/** Business seconds from start to end; a moment (one expression for both) has none. */
const businessSeconds = (f: Fact) =>
  f.start === f.end
    ? sql`0`
    : sql`${businessClock(sql`f.inbox`, sql`f.e`)} - ${businessClock(sql`f.inbox`, sql`f.s`)}`;

/**
 * The fact's row. Its start and end are computed once, in the inner SELECT, and read by name
 * after: the business clock names each of them three times, and a start such as "the last bot
 * handoff" is itself a subquery, so inlining them multiplied the SQL a batch sends and parses.
 */
const factRow = (f: Fact) =>
  sql`SELECT NULL, ${f.accountId}, ${f.name}, f.e - f.s,
      ${businessSeconds(f)},
      f.inbox, f.u, f.team, f.cid, f.s, f.e, f.e, f.label
    FROM (SELECT (${f.start}) AS s, (${f.end}) AS e, ${f.user} AS u, c.inbox_id AS inbox,
      c.team_id AS team, c.id AS cid, ${f.label ?? sql`NULL`} AS label
      ${f.from}) f`;

/**
 * Several facts of one event in one statement (UNION ALL, rows in the order given): a message
 * weighs four candidate facts of which one or two hold, and a batch of many messages pays per
 * statement.
 */
export const insertFacts = (db: Db, facts: Fact[]) =>
  db.insert(reportingEvents).select(
    sql.join(
      facts.map((f) => factRow(f)),
      sql` UNION ALL `,
    ),
  );

const COLUMNS = sql.raw(
  "id, account_id, name, value, value_in_business_hours, inbox_id, user_id, team_id, conversation_id, event_start_time, event_end_time, created_at, label_id",
);

/** factRow with its columns named, and its message's place `k` and its own `i` to order by. */
const keyedFactRow = (f: Fact, i: number) =>
  sql`SELECT NULL AS id, f.account AS account_id, ${f.name} AS name, f.e - f.s AS value,
      ${businessSeconds(f)} AS value_in_business_hours,
      f.inbox AS inbox_id, f.u AS user_id, f.team AS team_id, f.cid AS conversation_id,
      f.s AS event_start_time, f.e AS event_end_time, f.e AS created_at, f.label AS label_id,
      f.k AS k, ${sql.raw(String(i))} AS i
    FROM (SELECT (${f.start}) AS s, (${f.end}) AS e, ${f.user} AS u, c.inbox_id AS inbox,
      c.team_id AS team, c.id AS cid, ${f.label ?? sql`NULL`} AS label, c.k AS k,
      ${f.accountId} AS account ${f.from}) f`;

/**
 * The facts of a log writer's call (`facts` over `fromCreatedMessages`) in one statement, its
 * SQL text built once: the rows in the order the statements of each message in turn write them
 * (by message, then in the order given). `bind` gives the values for a call's messages.
 */
export function prepareCreatedFacts(facts: Fact[]) {
  const { sql: text, params } = new SQLiteAsyncDialect().sqlToQuery(
    sql`INSERT INTO ${reportingEvents} (${COLUMNS}) SELECT ${COLUMNS} FROM (${sql.join(
      facts.map(keyedFactRow),
      sql` UNION ALL `,
    )}) ORDER BY k, i`,
  );
  return { sql: text, bind: (messages: string) => fillPlaceholders(params, { messages }) };
}

/**
 * A log writer's messages as `m`, each with its conversation as `c` as the message found it
 * (CreatedMessage in events/registry.ts: its call's earlier messages moved the reply clocks, and
 * the row is touched once, after every fact), from one JSON parameter of `[id, firstReplyAt,
 * waitingReset, waitingAt, conversationId, accountId]` per message; `c.k` is the message's
 * place, `c.fact_account` its event's account.
 */
export const fromCreatedMessages = (where: SQL = sql``) =>
  sql`FROM (SELECT j.key AS k, j.value ->> 0 AS message_id, j.value ->> 5 AS fact_account, c0.id AS id,
      c0.account_id AS account_id, c0.inbox_id AS inbox_id, c0.team_id AS team_id,
      c0.assignee_id AS assignee_id, c0.created_at AS created_at,
      coalesce(c0.first_reply_created_at, j.value ->> 1) AS first_reply_created_at,
      CASE WHEN j.value ->> 2 THEN j.value ->> 3
        ELSE coalesce(c0.waiting_since, j.value ->> 3) END AS waiting_since
    FROM json_each(${placeholder("messages")}) j
    JOIN conversations c0 ON c0.id = j.value ->> 4) c
    JOIN ${messages} m ON m.id = c.message_id WHERE 1 ${where}`;

/** The conversation `ref` as `c`, with `where` (SQL starting with AND) added. */
export const fromConversation = (ref: IdRef, where: SQL = sql``) =>
  sql`FROM conversations c WHERE c.id = ${ref} ${where}`;

/** The message `ref` as `m` with its conversation as `c`. */
export const fromMessage = (ref: IdRef, where: SQL = sql``) =>
  sql`FROM ${messages} m JOIN conversations c ON c.id = m.conversation_id
    WHERE m.id = ${ref} ${where}`;

/** A human agent's public reply: a user's outgoing message, not written by an automation rule. */
export const HUMAN_REPLY = sql`AND m.message_type = 1 AND m.private = 0 AND m.sender_type = 'User'
  AND json_extract(CASE WHEN json_valid(m.content_attributes) THEN m.content_attributes ELSE '{}' END,
    '$.automation_rule_id') IS NULL`;

/** When the conversation's last fact named `name` happened (NULL: never). */
export const lastFactAt = (name: string) =>
  sql`(SELECT MAX(r.created_at) FROM ${reportingEvents} r
    WHERE r.conversation_id = c.id AND r.name = ${name})`;

export const hasFact = (name: string) =>
  sql`EXISTS (SELECT 1 FROM ${reportingEvents} r WHERE r.conversation_id = c.id AND r.name = ${name})`;

/** The inbox is run by an agent bot. */
export const INBOX_HAS_BOT = sql`EXISTS (SELECT 1 FROM ${agentBotInboxes} b WHERE b.inbox_id = c.inbox_id
  AND b.status = 'active')`;

/**
 * For a conditional event (written only if its change happened): its outbox row exists. The
 * recorder stamps `at` on it, and a status can change to the same value only once a second.
 */
export const statusRecorded = (at: number, status: string) =>
  sql`AND EXISTS (SELECT 1 FROM ${eventOutbox} o WHERE o.conversation_id = c.id
    AND o.name = 'conversation_status_changed' AND o.created_at = ${at}
    AND json_extract(o.payload, '$.changed_attributes.status.current_value') = ${status})`;

/**
 * For a conditional assignment (auto-assignment): its conversation_updated outbox row names the
 * assignee the conversation now has, and no assignment of it was counted at `at` yet (a racing
 * try of the same second whose update did not happen sees the winner's row).
 */
export const assigneeRecorded = (at: number) =>
  sql`AND EXISTS (SELECT 1 FROM ${eventOutbox} o WHERE o.conversation_id = c.id
    AND o.name = 'conversation_updated' AND o.created_at = ${at}
    AND json_extract(o.payload, '$.changed_attributes.assignee_id.current_value') = c.assignee_id)
  AND NOT EXISTS (SELECT 1 FROM ${reportingEvents} r WHERE r.conversation_id = c.id
    AND r.name = 'conversation_assigned' AND r.created_at = ${at})`;

/** The id of the account's label titled `title`, as SQL over `c` (NULL: no such label). */
export const labelIdOf = (title: string) =>
  sql`(SELECT l.id FROM ${labels} l WHERE l.account_id = c.account_id AND l.title = ${title})`;
