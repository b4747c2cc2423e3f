import type { Db } from "../../db/client";
import { outboxPayload } from "../../events/commit";
import { webhookName } from "../../events/names";
import { type CreatedMessage, handlers, prepareDerived } from "../../events/registry";
import type { AnyDomainEvent } from "../../events/types";
import { nowSeconds } from "../../lib/time";
import { createdEvent, groupBatch } from "./group-batch";
import type { LoggedRequest } from "./queries.wal";
import {
  insertMessages,
  insertOutbox,
  markSent,
  type Touched,
  touchContact,
  touchConversation,
} from "./queries.writer";
import type { AppendRequest } from "./types";

/** One room's call to the log writer: its oldest logged entries, in seq order, and its marks. */
export type WriterCall = {
  entries: { id: number; seq: number; req: LoggedRequest }[];
  marks: number[];
};

/**
 * JSON characters of messages per insert: D1 takes a value of 2,000,000 bytes at most, and a
 * character is 3 bytes of UTF-8 at most. A message larger alone goes alone.
 */
const MAX_JSON_CHARS = 600_000;

/** A value left out takes the column's default, as in a drizzle insert. */
const or = <T, D>(v: T | undefined, d: D) => (v === undefined ? d : v);
const json = (v: unknown) => (v === undefined ? "{}" : v === null ? null : JSON.stringify(v));

/** A message's row for queries.writer.ts' INSERT_MESSAGES (insertMessage's values). */
function messageRow({ id, seq, req }: WriterCall["entries"][number]) {
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

/**
 * The call's touches applied in turn (touchConversation's rules): before each message, the reply
 * clocks it finds (its facts read them), and after the last, what the conversation row becomes.
 */
function touches(call: WriterCall) {
  const t: Touched = {
    events: 0,
    updatedAt: 0,
    lastActivityAt: null,
    firstReplyAt: null,
    waitingReset: false,
    waitingAt: null,
  };
  const found = call.entries.map(({ req }) => {
    const before = { ...t };
    const { kind, at } = req.touch;
    t.updatedAt = at;
    if (kind === "incoming") {
      t.lastActivityAt = at;
      t.waitingAt ??= at;
    } else if (kind === "human_reply") {
      t.lastActivityAt = at;
      t.waitingReset = true;
      t.waitingAt = null;
      t.firstReplyAt ??= at;
    } else if (kind === "activity") {
      t.lastActivityAt = at;
    }
    return before;
  });
  return { found, after: t };
}

/**
 * A room's call as the log writer's statements: its messages, their outbox rows, their derived
 * rows (each derived handler's `createdMessages`), the conversation's touch and its contact's,
 * then the room's outbox marks; a few statements whatever the number of messages. The rows are
 * those groupBatch writes message by message (whose way a call takes when a message carries files
 * or a derived handler has no form for the writer). `eventIds`: the outbox rows, in order.
 */
export async function writerBatch(db: Db, d1: D1Database, call: WriterCall) {
  const first = call.entries[0] as WriterCall["entries"][number];
  const conversationId = first.req.conversationId;
  const events = call.entries.map((e) =>
    e.req.record ? createdEvent(e.req as AppendRequest, e.id) : null,
  );
  const recorded = events.filter((e): e is AnyDomainEvent => e !== null);
  await prepareDerived(db, recorded, first.req.record?.at ?? 0);
  const derived = handlers().derived;
  const byStatements = derived.some(
    (d) =>
      !d.createdMessages &&
      call.entries.some((e, i) => {
        const event = events[i];
        return event && d.statements(db, event, e.req.record?.at ?? 0).length > 0;
      }),
  );
  if (byStatements || call.entries.some((e) => (e.req.attachments ?? []).length > 0)) {
    return statementByStatement(db, d1, call);
  }
  const { found, after } = touches(call);
  const outbox: unknown[][] = [];
  const created: CreatedMessage[] = [];
  call.entries.forEach((e, i) => {
    const event = events[i];
    const by = e.req.record;
    if (!event || !by) {
      return;
    }
    const { payload } = outboxPayload(event, by);
    outbox.push([event.accountId, webhookName("message.created"), JSON.stringify(payload), by.at]);
    const clocks = found[i] as Touched;
    created.push({
      messageId: e.id,
      accountId: event.accountId,
      conversationId,
      isPrivate: e.req.values.private ?? false,
      firstReplyAt: clocks.firstReplyAt,
      waitingReset: clocks.waitingReset,
      waitingAt: clocks.waitingAt,
    });
  });
  after.events = outbox.length;
  const statements: D1PreparedStatement[] = slices(call.entries.map(messageRow)).map((rows) =>
    insertMessages(d1, rows),
  );
  const outboxAt = statements.length;
  if (outbox.length > 0) {
    statements.push(insertOutbox(d1, JSON.stringify(outbox), conversationId));
  }
  for (const d of derived) {
    for (const s of d.createdMessages?.(created) ?? []) {
      statements.push(d1.prepare(s.sql).bind(...s.params));
    }
  }
  statements.push(touchConversation(d1, conversationId, after));
  // Each contact's message moves it: the last one's time stands.
  const contactAt = call.entries.reduce<number | null>(
    (at, e) => (e.req.contactId ? e.req.touch.at : at),
    null,
  );
  if (contactAt !== null) {
    statements.push(touchContact(d1, conversationId, contactAt));
  }
  if (call.marks.length > 0) {
    statements.push(markSent(d1, call.marks, nowSeconds()));
  }
  return {
    statements,
    eventIds: (results: D1Result[]) =>
      outbox.length === 0
        ? []
        : ((results[outboxAt]?.results ?? []) as { id: number }[])
            .map((r) => r.id)
            .sort((a, b) => a - b),
  };
}

/** The call as groupBatch's statements (drizzle's, taken as SQL), and the marks after them. */
async function statementByStatement(db: Db, d1: D1Database, call: WriterCall) {
  const group = call.entries.map((e) => ({ req: e.req as AppendRequest, seq: e.seq, id: e.id }));
  const batch = await groupBatch(db, group, { counters: false, rows: false });
  const statements = batch.statements.map((s) => {
    const q = (s as unknown as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
    return d1.prepare(q.sql).bind(...q.params);
  });
  if (call.marks.length > 0) {
    statements.push(markSent(d1, call.marks, nowSeconds()));
  }
  return {
    statements,
    eventIds: (results: D1Result[]) =>
      batch.read(results.map((r) => r.results ?? [])).stored.flatMap((s) => s.eventIds),
  };
}
