import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import type { AttachmentRow, ConversationRow, MessageRow } from "../../db/schema";
import { eventWrites, type Recorder } from "../../events/commit";
import { SYSTEM } from "../../events/deps";
import { prepareDerived } from "../../events/registry";
import type { AnyDomainEvent } from "../../events/types";
import {
  type Counters,
  counterStatements,
  countersFrom,
  insertAttachment,
  insertMessage,
  touchContact,
  touchConversation,
} from "../messages/queries";
import type { AppendRequest } from "./types";

type Batch = BatchItem<"sqlite">;

/** A message of a group with the seq and the (leased) id it commits under. */
export type Numbered = { req: AppendRequest; seq: number; id: number };

/** What one message of a group got back from the batch. */
export type Stored = {
  row: MessageRow | undefined;
  attachments: AttachmentRow[];
  eventIds: number[];
};

const NO_RECORDER: Recorder = { performedBy: SYSTEM, origin: "", at: 0 };

/** message.created of the message stored under `messageId` (the log writer records it too). */
export function createdEvent(req: AppendRequest, messageId: number): AnyDomainEvent {
  return {
    name: "message.created",
    accountId: req.values.accountId,
    conversation: req.conversationId,
    data: {
      inbox_id: req.values.inboxId,
      message_id: messageId,
      is_private: req.values.private ?? false,
    },
  };
}

/**
 * The one D1 batch of a group of messages: per message its insert, its outbox and derived rows, the conversation's touch and its files;
 * then the counters the presenter shows, unless `counters` is false (the log's replication: the
 * room showed the message at its commit, and the unread count scans the conversation's messages).
 * `read` takes each message back out of the results. `rows` false: the message and conversation
 * rows do not come back (the log's replication has them; reading every column back from D1 is
 * CPU on both sides), `read` then gives no `row` and no `conversation`.
 */
export async function groupBatch(db: Db, group: Numbered[], { counters = true, rows = true } = {}) {
  const statements: Batch[] = [];
  const spans: { start: number; touch: number; files: number; ids: (r: unknown[]) => number[] }[] =
    [];
  // message_created commits with the message itself (activity messages have no event).
  const events = group.map(({ req, id }) => (req.record ? [createdEvent(req, id)] : []));
  await prepareDerived(db, events.flat(), group[0]?.req.record?.at ?? 0);
  group.forEach(({ req, seq, id: messageId }, n) => {
    const files = req.attachments ?? [];
    const start = statements.length;
    statements.push(
      insertMessage(
        db,
        { ...req.values, id: messageId, conversationId: req.conversationId, seq },
        rows,
      ),
    );
    const writes = eventWrites(db, events[n] ?? [], req.record ?? NO_RECORDER);
    const eventsAt = statements.length;
    // Before the touch: the facts derived from the message (reply time, first response) read
    // the conversation's clocks as the message found them.
    statements.push(...writes.statements);
    const touch = statements.length;
    statements.push(
      touchConversation(db, req.conversationId, req.touch, rows && n === group.length - 1),
      ...(req.contactId ? [touchContact(db, req.conversationId, req.touch.at)] : []),
    );
    statements.push(...files.map((a) => insertAttachment(db, { ...a, messageId })));
    spans.push({ start, touch, files: files.length, ids: (r) => writes.ids(r, eventsAt) });
  });
  // The presenter's unread count and source_id, read after the group in the same round trip.
  const countersAt = statements.length;
  if (counters) {
    statements.push(...counterStatements(db, (group.at(-1) as Numbered).req.counters));
  }
  return {
    statements,
    read(results: unknown[][]): {
      stored: Stored[];
      counters: Counters;
      conversation?: ConversationRow;
    } {
      const stored = spans.map((span, i) => {
        const end = spans[i + 1]?.start ?? countersAt;
        return {
          row: rows ? (results[span.start]?.[0] as MessageRow | undefined) : undefined,
          attachments: results.slice(end - span.files, end).flat() as AttachmentRow[],
          eventIds: span.ids(results),
        };
      });
      const last = spans.at(-1);
      return {
        stored,
        counters: countersFrom(results.slice(countersAt, countersAt + 2)),
        conversation:
          rows && last ? (results[last.touch]?.[0] as ConversationRow | undefined) : undefined,
      };
    },
  };
}
