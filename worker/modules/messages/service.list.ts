import { z } from "@hono/zod-openapi";
import type { ConversationRow, MessageRow } from "../../db/schema";
import { labelsOf } from "../conversations/queries";
import type { MessageConversationContext } from "./presenter";
import { findMessage, pageMessages } from "./queries";
import { countersAndNewest } from "./queries.tail";
import { MessageSchema, SenderSchema } from "./schema";
import { loadSenders } from "./senders";
import type { MessageScope } from "./service";
import {
  beyond,
  mergePage,
  readTail,
  type TailEntry,
  tailSeqOf,
  touchedBy,
  unseenIn,
} from "./tail";
import { contextFrom, presentMessages } from "./views";

/** Chatwoot's page sizes: 20 latest or before a message, 100 after one. */
const PAGE = 20;
const AFTER_PAGE = 100;

export const MessageListSchema = z
  .object({
    meta: z.object({
      labels: z.array(z.string()),
      additional_attributes: z.record(z.string(), z.unknown()),
      contact: SenderSchema.nullable(),
      assignee: SenderSchema.nullable(),
      agent_last_seen_at: z.number().int().nullable(),
      assignee_last_seen_at: z.number().int().nullable(),
    }),
    payload: z.array(MessageSchema),
  })
  .openapi("MessageList");

export async function presentOne(
  scope: MessageScope,
  conversation: ConversationRow,
  row: MessageRow,
  context: MessageConversationContext,
) {
  const [message] = await presentMessages(
    scope.deps.db,
    [row],
    new Map([[conversation.id, context]]),
    scope.origin,
  );
  return message as z.infer<typeof MessageSchema>;
}

/**
 * A cursor is a message id (Chatwoot); it is turned into that message's seq in this conversation
 * (D1's, else the room's tail's: a message just posted).
 */
async function seqOf(
  scope: MessageScope,
  conversation: ConversationRow,
  id: number | undefined,
  tail: TailEntry[],
) {
  if (id === undefined) {
    return undefined;
  }
  const found = await findMessage(scope.deps.db, conversation.id, id);
  // An id of another conversation pages from nowhere rather than leaking anything.
  return found?.seq ?? tailSeqOf(tail, id) ?? 0;
}

export async function listMessages(
  scope: MessageScope,
  conversation: ConversationRow,
  query: { before?: number; after?: number },
): Promise<z.infer<typeof MessageListSchema>> {
  const { db } = scope.deps;
  // The room first: what it no longer holds, D1 has by the reads below (messages/tail.ts).
  const tail = await readTail(scope, conversation);
  const [before, after] = await Promise.all([
    seqOf(scope, conversation, query.before, tail),
    seqOf(scope, conversation, query.after, tail),
  ]);
  const limit = after !== undefined ? AFTER_PAGE : PAGE;
  const [stored, counted, labels] = await Promise.all([
    pageMessages(db, conversation.id, { before, after }, limit),
    countersAndNewest(db, conversation),
    labelsOf(db, conversation.id),
  ]);
  const rows = mergePage(stored, tail, { before, after }, limit);
  const fresh = beyond(tail, counted.newest);
  const context = contextFrom(touchedBy(conversation, fresh), {
    unread: counted.unread + unseenIn(conversation, fresh),
    sourceId: counted.sourceId,
  });
  const people = [
    { senderType: "Contact", senderId: conversation.contactId },
    ...(conversation.assigneeId === null
      ? []
      : [{ senderType: "User", senderId: conversation.assigneeId }]),
  ] as MessageRow[];
  const [payload, senders] = await Promise.all([
    presentMessages(db, rows, new Map([[conversation.id, context]]), scope.origin),
    loadSenders(db, people),
  ]);
  return {
    meta: {
      labels,
      additional_attributes: conversation.additionalAttributes,
      contact: senders.get(`Contact:${conversation.contactId}`) ?? null,
      assignee: senders.get(`User:${conversation.assigneeId}`) ?? null,
      agent_last_seen_at: conversation.agentLastSeenAt,
      assignee_last_seen_at: conversation.assigneeLastSeenAt,
    },
    payload,
  };
}
