import type { Db } from "../../db/client";
import type { ConversationRow, MessageRow } from "../../db/schema";
import { presentAgentBotSender } from "../agent-bots/presenter";
import { presentContactSender } from "../contacts/presenter";
import type { MessageView } from "../conversation-room/types";
import type { ConversationScope } from "../conversations/access";
import { presentUserSender } from "../users/presenter";
import { type MessageConversationContext, presentMessage } from "./presenter";
import { type Counters, conversationCounters } from "./queries";
import type { Message, Sender } from "./schema";
import { loadMessageExtras, loadSender, senderKey } from "./senders";

/** Who works with a conversation's messages, and the origin its absolute URLs are made for. */
export type MessageScope = ConversationScope & { origin: string };

/**
 * Presents many messages (possibly of many conversations) with batched sender and attachment
 * loads. `contexts` is keyed by the conversation's internal id.
 */
export async function presentMessages(
  db: Db,
  rows: MessageRow[],
  contexts: Map<number, MessageConversationContext>,
  origin: string,
): Promise<Message[]> {
  const { senders, files } = await loadMessageExtras(db, rows);
  return rows.map((row) => {
    const context = contexts.get(row.conversationId);
    if (!context) {
      throw new Error(`no conversation context for message ${row.id}`);
    }
    const key = senderKey(row);
    return presentMessage(row, context, {
      sender: key ? (senders.get(key) ?? null) : null,
      attachments: files.get(row.id) ?? [],
      origin,
    });
  });
}

/** What the message presenter needs from one conversation, given its counters. */
export const contextFrom = (
  conversation: ConversationRow,
  { unread, sourceId }: Counters,
): MessageConversationContext => ({
  displayId: conversation.displayId,
  assigneeId: conversation.assigneeId,
  unreadCount: unread,
  lastActivityAt: conversation.lastActivityAt,
  sourceId,
});

/** What the message presenter needs from one conversation. */
export async function contextOf(
  scope: MessageScope,
  conversation: ConversationRow,
): Promise<MessageConversationContext> {
  return contextFrom(conversation, await conversationCounters(scope.deps.db, conversation));
}

/** The sender's JSON, from the caller's own row when the caller sent it (no query then). */
export async function senderJson(
  scope: MessageScope,
  sender: { senderType: MessageRow["senderType"]; senderId: number | null },
): Promise<Sender | null> {
  const { actor } = scope;
  if (sender.senderType === "User" && actor.kind === "user" && actor.user.id === sender.senderId) {
    return presentUserSender(actor.user);
  }
  if (
    sender.senderType === "AgentBot" &&
    actor.kind === "bot" &&
    actor.bot.id === sender.senderId
  ) {
    return presentAgentBotSender(actor.bot);
  }
  if (
    sender.senderType === "Contact" &&
    actor.kind === "contact" &&
    actor.contact.id === sender.senderId
  ) {
    return presentContactSender(actor.contact);
  }
  return sender.senderType && sender.senderId !== null
    ? loadSender(scope.deps.db, sender.senderType, sender.senderId)
    : null;
}

/** What the room needs to show a message of `sender` in this conversation to each audience. */
export async function viewFor(
  scope: MessageScope,
  conversation: ConversationRow,
  sender: { senderType: MessageRow["senderType"]; senderId: number | null },
): Promise<MessageView> {
  const [context, json] = await Promise.all([
    contextOf(scope, conversation),
    senderJson(scope, sender),
  ]);
  return { context, sender: json, origin: scope.origin };
}
