import type { Db } from "../../db/client";
import { outboxPayload } from "../../events/commit";
import { webhookName } from "../../events/names";
import { type CreatedMessage, handlers, prepareDerived } from "../../events/registry";
import type { AnyDomainEvent } from "../../events/types";
import { nowSeconds } from "../../lib/time";
import { createdEvent, groupBatch } from "./group-batch";
import {
  insertMessages,
  insertOutbox,
  markLogged,
  markSent,
  messageRow,
  type Touched,
  touchContacts,
  touchConversations,
  type WriterCall,
} from "./queries.writer";
import type { AppendRequest } from "./types";

export type { WriterCall } from "./queries.writer";

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
    logSeq: (call.entries.at(-1) as WriterCall["entries"][number]).seq,
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

/** A call ready for the writer's statements: its events, or groupBatch's statements. */
export type ReadyCall = {
  call: WriterCall;
  events: (AnyDomainEvent | null)[];
  byStatements?: Awaited<ReturnType<typeof statementByStatement>>;
};

/**
 * A room's call made ready: its message_created events recorded and its derived writes prepared
 * (prepareDerived). A call whose message carries files, or whose messages a derived handler
 * without the writer's form (`createdMessages`) writes for, takes groupBatch's statements.
 */
export async function readyCall(db: Db, d1: D1Database, call: WriterCall): Promise<ReadyCall> {
  const first = call.entries[0] as WriterCall["entries"][number];
  const events = call.entries.map((e) =>
    e.req.record ? createdEvent(e.req as AppendRequest, e.id) : null,
  );
  await prepareDerived(
    db,
    events.filter((e): e is AnyDomainEvent => e !== null),
    first.req.record?.at ?? 0,
  );
  const byStatements = handlers().derived.some(
    (d) =>
      !d.createdMessages &&
      call.entries.some((e, i) => {
        const event = events[i];
        return event && d.statements(db, event, e.req.record?.at ?? 0).length > 0;
      }),
  );
  if (byStatements || call.entries.some((e) => (e.req.attachments ?? []).length > 0)) {
    return { call, events, byStatements: await statementByStatement(db, d1, call) };
  }
  return { call, events };
}

/**
 * Calls as one transaction's statements: the messages of them all, their outbox rows, their
 * derived rows (each derived handler's `createdMessages`), the conversations' touches and their
 * contacts', then `marks` (outbox rows the writer's relay sent): a handful of statements whatever
 * the number of rooms and messages, writing the rows groupBatch's statements write for each
 * message in turn (calls taking those statements follow). `eventIds`: per call, its outbox rows
 * in order.
 */
export function writerStatements(d1: D1Database, ready: ReadyCall[], marks: number[] = []) {
  const messages: unknown[][] = [];
  const outbox: unknown[][] = [];
  const created: CreatedMessage[] = [];
  const touched: [number, Touched][] = [];
  const contacts: [number, number][] = [];
  for (const { call, events, byStatements } of ready) {
    if (byStatements) {
      continue;
    }
    const conversationId = (call.entries[0] as WriterCall["entries"][number]).req.conversationId;
    const { found, after } = touches(call);
    call.entries.forEach((e, i) => {
      messages.push(messageRow(e));
      const event = events[i];
      const by = e.req.record;
      if (!event || !by) {
        return;
      }
      after.events += 1;
      const { payload } = outboxPayload(event, by);
      const name = webhookName("message.created");
      outbox.push([
        event.accountId,
        name,
        JSON.stringify(payload),
        by.at,
        after.events,
        conversationId,
      ]);
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
    touched.push([conversationId, after]);
    // Each contact's message moves it: the last one's time stands.
    const contactAt = call.entries.reduce<number | null>(
      (at, e) => (e.req.contactId ? e.req.touch.at : at),
      null,
    );
    if (contactAt !== null) {
      contacts.push([conversationId, contactAt]);
    }
  }
  const statements = insertMessages(d1, messages);
  const outboxAt =
    outbox.length > 0 ? statements.push(insertOutbox(d1, JSON.stringify(outbox))) - 1 : -1;
  for (const d of handlers().derived) {
    for (const s of d.createdMessages?.(created) ?? []) {
      statements.push(d1.prepare(s.sql).bind(...s.params));
    }
  }
  if (touched.length > 0) {
    statements.push(touchConversations(d1, touched));
  }
  if (contacts.length > 0) {
    statements.push(touchContacts(d1, contacts));
  }
  if (marks.length > 0) {
    statements.push(markSent(d1, marks, nowSeconds()));
  }
  const slicesOf = ready.map((r) => {
    const at = statements.length;
    statements.push(...(r.byStatements?.statements ?? []));
    return at;
  });
  return {
    statements,
    eventIds: (results: D1Result[]): number[][] => {
      const rows = (outboxAt < 0 ? [] : (results[outboxAt]?.results ?? [])) as {
        id: number;
        conversation_id: number;
      }[];
      const byConversation = new Map<number, number[]>();
      for (const row of rows) {
        const ids = byConversation.get(row.conversation_id);
        if (ids) {
          ids.push(row.id);
        } else {
          byConversation.set(row.conversation_id, [row.id]);
        }
      }
      return ready.map((r, n) => {
        if (r.byStatements) {
          const at = slicesOf[n] as number;
          return r.byStatements.eventIds(results.slice(at, at + r.byStatements.statements.length));
        }
        const conversationId = (r.call.entries[0] as WriterCall["entries"][number]).req
          .conversationId;
        return (byConversation.get(conversationId) ?? []).sort((a, b) => a - b);
      });
    },
  };
}

/** A call as groupBatch's statements (drizzle's, taken as SQL). */
async function statementByStatement(db: Db, d1: D1Database, call: WriterCall) {
  const group = call.entries.map((e) => ({ req: e.req as AppendRequest, seq: e.seq, id: e.id }));
  const batch = await groupBatch(db, group, { counters: false, rows: false });
  const statements = batch.statements.map((s) => {
    const q = (s as unknown as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
    return d1.prepare(q.sql).bind(...q.params);
  });
  // Last: `read` takes nothing from its result.
  const last = call.entries.at(-1) as WriterCall["entries"][number];
  statements.push(markLogged(d1, last.req.conversationId, last.seq));
  return {
    statements,
    eventIds: (results: D1Result[]) =>
      batch.read(results.map((r) => r.results ?? [])).stored.flatMap((s) => s.eventIds),
  };
}
