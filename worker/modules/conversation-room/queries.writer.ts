/**
 * The log writer's statements (writer-batch.ts): SQL text fixed once, bound per transaction,
 * each writing the messages of all its rooms' calls (each call one conversation's, in seq order)
 * from one JSON parameter, so a transaction costs a handful of statements whatever its size (D1
 * binds 100 values a statement). They write what messages/queries.ts and events/queries.ts
 * write message by message, room after room.
 */

import type { Handoff } from "../../realtime/room-frames";
import type { LoggedRequest } from "./queries.wal";

/** What the writer reads of a logged request. */
export type WriterRequest = Pick<
  LoggedRequest,
  "conversationId" | "values" | "touch" | "contactId" | "attachments" | "record"
>;

/** What the writer reads of a logged request (not the room's views of it: less to copy). */
export const writerRequest = (r: LoggedRequest): WriterRequest => ({
  conversationId: r.conversationId,
  values: r.values,
  touch: r.touch,
  contactId: r.contactId,
  attachments: r.attachments,
  record: r.record,
});

/**
 * One room's call to the log writer: its oldest logged entries, in seq order, and what to pass
 * on once D1 has them (`RoomHandoff`, realtime/room-frames.ts).
 */
export type WriterCall = Handoff & {
  entries: { id: number; seq: number; req: WriterRequest }[];
};

/**
 * JSON characters of messages per insert: D1 takes a value of 2,000,000 bytes at most, and a
 * character is 3 bytes of UTF-8 at most. A message larger alone goes alone.
 */
const MAX_JSON_CHARS = 600_000;

/** A value left out takes the column's default, as in a drizzle insert. */
const or = <T, D>(v: T | undefined, d: D) => (v === undefined ? d : v);
const json = (v: unknown) => (v === undefined ? "{}" : v === null ? null : JSON.stringify(v));

/** A message's row for INSERT_MESSAGES (insertMessage's values). */
export function messageRow({ id, seq, req }: WriterCall["entries"][number]) {
  const v = req.values;
  return [
    id,
    v.accountId,
    v.inboxId,
    req.conversationId,
    seq,
    v.content ?? null,
    v.messageType,
    or(v.contentType, "text"),
    json(v.contentAttributes),
    v.private === undefined ? 0 : v.private === null ? null : v.private ? 1 : 0,
    or(v.status, "sent"),
    v.sourceId ?? null,
    v.senderType ?? null,
    v.senderId ?? null,
    json(v.externalSourceIds),
    json(v.additionalAttributes),
    json(v.sentiment),
    v.echoId ?? null,
    v.idempotencyKey ?? null,
    v.createdAt ?? null,
    v.updatedAt ?? null,
    v.senderType === "Contact" ? 1 : 0,
  ];
}

/** The rows as JSON arrays of at most MAX_JSON_CHARS (one row at least each). */
function slices(rows: unknown[][]): string[] {
  const out: string[] = [];
  let part: string[] = [];
  let size = 0;
  for (const row of rows) {
    const one = JSON.stringify(row);
    if (part.length > 0 && size + one.length > MAX_JSON_CHARS) {
      out.push(`[${part.join(",")}]`);
      part = [];
      size = 0;
    }
    part.push(one);
    size += one.length + 1;
  }
  if (part.length > 0) {
    out.push(`[${part.join(",")}]`);
  }
  return out;
}

/** The messages table's columns, in the order of a row of `messageRow`. */
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
 * The outbox rows, in order, each with its conversation's next event seq (its place among the
 * conversation's rows, at 4): the counter is moved past them by TOUCH after (outboxStatements
 * bumps it once per row, before the row).
 */
const INSERT_OUTBOX = `INSERT INTO event_outbox
    (id, account_id, name, conversation_id, conversation_seq, payload, created_at, sent_at, done_at)
  SELECT NULL, j.value ->> 0, j.value ->> 1, c.id, c.event_seq + (j.value ->> 4), j.value ->> 2,
    j.value ->> 3, NULL, NULL
  FROM json_each(?) j JOIN conversations c ON c.id = j.value ->> 5 ORDER BY j.key
  RETURNING id, conversation_id`;

/**
 * Each conversation as its call's touches leave it (touchConversation's rules, applied in turn
 * by writer-batch.ts), its event counter past the call's outbox rows, and its `log_seq` at the
 * call's last seq (the room's replay skips what D1 has by it: log-repair.ts): one row each.
 */
const TOUCH = `UPDATE conversations AS c SET event_seq = c.event_seq + (j.value ->> 1),
    updated_at = j.value ->> 2,
    last_activity_at = coalesce(j.value ->> 3, c.last_activity_at),
    first_reply_created_at = coalesce(c.first_reply_created_at, j.value ->> 4),
    waiting_since = CASE WHEN j.value ->> 5 THEN j.value ->> 6
      ELSE coalesce(c.waiting_since, j.value ->> 6) END,
    log_seq = max(c.log_seq, j.value ->> 7)
  FROM json_each(?) j WHERE c.id = j.value ->> 0`;

/** The conversation's log up to `seq` is in D1 (a call written by groupBatch's statements). */
const LOGGED = "UPDATE conversations SET log_seq = max(log_seq, ?1) WHERE id = ?2";

/**
 * Each conversation's contact (as D1 has it then) was last active at its call's last contact
 * message; a contact of two conversations takes the later call's, as one update after the other.
 */
const TOUCH_CONTACTS = `UPDATE contacts SET last_activity_at = (
    SELECT j.value ->> 1 FROM json_each(?1) j
    WHERE (SELECT c.contact_id FROM conversations c WHERE c.id = j.value ->> 0) = contacts.id
    ORDER BY j.key DESC LIMIT 1)
  WHERE id IN (SELECT c.contact_id FROM json_each(?1) j JOIN conversations c ON c.id = j.value ->> 0)`;

/** The outbox rows the writer's relay sent to the queue since its last transaction. */
const MARK_SENT =
  "UPDATE event_outbox SET sent_at = ?1 WHERE id IN (SELECT value FROM json_each(?2))";

/** The messages' rows (`messageRow`), in inserts of at most MAX_JSON_CHARS each. */
export const insertMessages = (d1: D1Database, rows: unknown[][]) =>
  slices(rows).map((json) => d1.prepare(INSERT_MESSAGES).bind(json));

export const insertOutbox = (d1: D1Database, rows: string) => d1.prepare(INSERT_OUTBOX).bind(rows);

/** A conversation's clocks after its call's touches, and its outbox rows' count. */
export type Touched = {
  events: number;
  updatedAt: number;
  lastActivityAt: number | null;
  firstReplyAt: number | null;
  waitingReset: boolean;
  waitingAt: number | null;
  /** The call's last seq (the conversation's `log_seq`). */
  logSeq: number;
};

export const touchConversations = (d1: D1Database, touched: [number, Touched][]) =>
  d1
    .prepare(TOUCH)
    .bind(
      JSON.stringify(
        touched.map(([id, t]) => [
          id,
          t.events,
          t.updatedAt,
          t.lastActivityAt,
          t.firstReplyAt,
          t.waitingReset ? 1 : 0,
          t.waitingAt,
          t.logSeq,
        ]),
      ),
    );

/** `[conversationId, at]` per conversation whose contact wrote, in call order. */
export const touchContacts = (d1: D1Database, rows: [number, number][]) =>
  d1.prepare(TOUCH_CONTACTS).bind(JSON.stringify(rows));

export const markLogged = (d1: D1Database, conversationId: number, seq: number) =>
  d1.prepare(LOGGED).bind(seq, conversationId);

export const markSent = (d1: D1Database, ids: number[], at: number) =>
  d1.prepare(MARK_SENT).bind(at, JSON.stringify(ids));
