import type { ConversationRow } from "../../db/schema";
import { MESSAGE_TYPES } from "../../db/schema";
import { memoized, type OutboxEvent } from "../../events/outbox-types";
import { findById, findContact, labelsOf } from "../conversations/queries";
import { listDefinitions } from "../custom-attributes/queries";
import { findMessage } from "../messages/queries";
import { eventConversation, eventMessage, type Reads } from "../webhooks/queries.batch";
import { customDefinitions, type Facts } from "./fields";

export type Trigger = {
  accountId: number;
  conversationId: number;
  /** The triggering message (message_created). */
  messageId?: number;
  changedAttributes?: Facts["changedAttributes"];
  now: number;
};

export type Loaded = { conversation: ConversationRow; facts: Facts };

/**
 * What every rule of one event is evaluated against, loaded once: the conversation (of the
 * event's account), its labels and contact, the message, and the account's definitions.
 * Null when the conversation or message is gone, or the message is an activity note (Chatwoot
 * runs no rule on those). Read once per queue batch for all its events (a rule's actions drop
 * the batch's reads: the rules of the next events see what they changed).
 */
export async function loadFacts(
  reads: Reads,
  event: OutboxEvent,
  trigger: Trigger,
): Promise<Loaded | null> {
  const db = reads.db;
  // The event's own conversation and message are the batch's; another (none today) is read.
  const own = event.conversationId === trigger.conversationId;
  const conversation = own
    ? await eventConversation(reads, event)
    : await findById(db, trigger.conversationId);
  if (!conversation || conversation.accountId !== trigger.accountId) {
    return null;
  }
  const { accountId, contactId } = conversation;
  const messageId = trigger.messageId;
  const [labels, contact, message, definitions] = await Promise.all([
    memoized(reads, `labels:${conversation.id}`, () => labelsOf(db, conversation.id)),
    memoized(reads, `contact:${accountId}:${contactId}`, () =>
      findContact(db, accountId, contactId),
    ),
    messageId === undefined
      ? undefined
      : own && event.payload.message_id === messageId
        ? eventMessage(reads, event)
        : findMessage(db, conversation.id, messageId),
    memoized(reads, `definitions:${accountId}`, () => listDefinitions(db, accountId)),
  ]);
  const messageType = message ? MESSAGE_TYPES[message.messageType] : undefined;
  if (trigger.messageId !== undefined && (!message || !messageType || messageType === "activity")) {
    return null;
  }
  const facts: Facts = {
    conversation: { ...conversation, labels },
    contact: contact ?? null,
    message:
      message && messageType
        ? { content: message.content, messageType, private: message.private }
        : null,
    changedAttributes: trigger.changedAttributes ?? {},
    definitions: customDefinitions(definitions),
    now: trigger.now,
  };
  return { conversation, facts };
}
