/**
 * The log writer's statements (writer-batch.ts): SQL text fixed once, bound per room's call, each
 * writing all of the call's messages (one conversation, in seq order) from one JSON parameter,
 * so a call costs a handful of statements whatever its size (D1 binds 100 values a statement).
 * They write what messages/queries.ts and events/queries.ts write message by message.
 */

/** The messages table's columns, in the order of a row of `messageRow` (writer-batch.ts). */
const MESSAGE_COLUMNS =
  "id, account_id, inbox_id, conversation_id, seq, content, message_type, content_type, content_attributes, private, status, source_id, sender_type, sender_id, external_source_ids, additional_attributes, sentiment, echo_id, idempotency_key, created_at, updated_at";

/**
 * The messages, in order. A contact's message (flag at 21) names the conversation's contact as
 * D1 has it when the insert runs (as insertMessage does: a contact merged while the message was
 * in the room's log); the clocks the row leaves unset are SQLite's now, as the columns' defaults.
 */
const INSERT_MESSAGES = `INSERT INTO messages (${MESSAGE_COLUMNS})
  SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5,
    j.value ->> 6, j.value ->> 7, j.value ->> 8, j.value ->> 9, j.value ->> 10, j.value ->> 11,
    j.value ->> 12,
    CASE WHEN j.value ->> 21 THEN (SELECT c.contact_id FROM conversations c WHERE c.id = j.value ->> 3)
      ELSE j.value ->> 13 END,
    j.value ->> 14, j.value ->> 15, j.value ->> 16, j.value ->> 17, j.value ->> 18,
    coalesce(j.value ->> 19, unixepoch()), coalesce(j.value ->> 20, unixepoch())
  FROM json_each(?) j ORDER BY j.key`;

/**
 * The outbox rows, in order, each with the conversation's next event seq: the row's counter is
 * moved past them all by TOUCH after (outboxStatements bumps it once per row, before the row).
 */
const INSERT_OUTBOX = `INSERT INTO event_outbox
    (id, account_id, name, conversation_id, conversation_seq, payload, created_at, sent_at, done_at)
  SELECT NULL, j.value ->> 0, j.value ->> 1, c.id, c.event_seq + j.key + 1, j.value ->> 2,
    j.value ->> 3, NULL, NULL
  FROM json_each(?1) j JOIN conversations c ON c.id = ?2 ORDER BY j.key RETURNING id`;

/**
 * The conversation as the call's touches leave it (touchConversation's rules, applied in turn by
 * writer-batch.ts), and its event counter past the call's outbox rows.
 */
const TOUCH = `UPDATE conversations SET event_seq = event_seq + ?1, updated_at = ?2,
    last_activity_at = coalesce(?3, last_activity_at),
    first_reply_created_at = coalesce(first_reply_created_at, ?4),
    waiting_since = CASE WHEN ?5 THEN ?6 ELSE coalesce(waiting_since, ?6) END
  WHERE id = ?7`;

/** The conversation's contact (as D1 has it then) was last active at the call's last message. */
const TOUCH_CONTACT = `UPDATE contacts SET last_activity_at = ?1
  WHERE id = (SELECT contact_id FROM conversations WHERE id = ?2)`;

/** The outbox rows the room sent to the queue since its last call. */
const MARK_SENT =
  "UPDATE event_outbox SET sent_at = ?1 WHERE id IN (SELECT value FROM json_each(?2))";

export const insertMessages = (d1: D1Database, rows: string) =>
  d1.prepare(INSERT_MESSAGES).bind(rows);

export const insertOutbox = (d1: D1Database, rows: string, conversationId: number) =>
  d1.prepare(INSERT_OUTBOX).bind(rows, conversationId);

export type Touched = {
  events: number;
  updatedAt: number;
  lastActivityAt: number | null;
  firstReplyAt: number | null;
  waitingReset: boolean;
  waitingAt: number | null;
};

export const touchConversation = (d1: D1Database, conversationId: number, t: Touched) =>
  d1
    .prepare(TOUCH)
    .bind(
      t.events,
      t.updatedAt,
      t.lastActivityAt,
      t.firstReplyAt,
      t.waitingReset ? 1 : 0,
      t.waitingAt,
      conversationId,
    );

export const touchContact = (d1: D1Database, conversationId: number, at: number) =>
  d1.prepare(TOUCH_CONTACT).bind(at, conversationId);

export const markSent = (d1: D1Database, ids: number[], at: number) =>
  d1.prepare(MARK_SENT).bind(at, JSON.stringify(ids));
