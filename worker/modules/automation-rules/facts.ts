import type { Db } from "../../db/client";
import type { ConversationRow } from "../../db/schema";
import { MESSAGE_TYPES } from "../../db/schema";
import { findById, findContact, labelsOf } from "../conversations/queries";
import { listDefinitions } from "../custom-attributes/queries";
import { findMessage } from "../messages/queries";
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
 * runs no rule on those).
 */
export async function loadFacts(db: Db, trigger: Trigger): Promise<Loaded | null> {
  const conversation = await findById(db, trigger.conversationId);
  if (!conversation || conversation.accountId !== trigger.accountId) {
    return null;
  }
  const [labels, contact, message, definitions] = await Promise.all([
    labelsOf(db, conversation.id),
    findContact(db, conversation.accountId, conversation.contactId),
    trigger.messageId === undefined
      ? undefined
      : findMessage(db, conversation.id, trigger.messageId),
    listDefinitions(db, conversation.accountId),
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
