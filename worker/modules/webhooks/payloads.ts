import type { Db } from "../../db/client";
import type { ConversationRow } from "../../db/schema";
import { memoized, type OutboxEvent } from "../../events/outbox-types";
import type { ChangedAttributes, Typer } from "../../events/types";
import { findAccount } from "../accounts/queries";
import { presentContactWebhook } from "../contacts/presenter";
import { findContact } from "../contacts/queries";
import { conversationWebhookData, type WebhookAudience } from "../conversations/views";
import { findInbox } from "../inboxes/queries";
import { presentMessageWebhook } from "../messages/presenter";
import { loadSender, senderKey } from "../messages/senders";
import {
  batchAccount,
  batchInbox,
  eventConversation,
  eventMessage,
  eventMessageExtras,
  type Reads,
  userEmail,
} from "./queries.batch";
import { findContactInboxRow, latestConversationOf } from "./queries.payloads";
import type { ChangedAttributesJson } from "./schema.payloads";

/** An event's record as webhooks carry it, without `event` (added per delivery). */
export type EventData = Record<string, unknown>;

export type { WebhookAudience };

/**
 * What one audience is given to load an event's record: `reads` shares the queue batch's reads
 * (its conversations, messages, senders) between its events.
 */
type Load = { db: Db; reads: Reads; event: OutboxEvent; origin: string; audience: WebhookAudience };

const SENDER_TYPES = { user: "User", contact: "Contact", agent_bot: "AgentBot" } as const;

/** Chatwoot's changed_attributes: one single-key object per attribute. */
const changedJson = (changed: ChangedAttributes | undefined): ChangedAttributesJson =>
  Object.entries(changed ?? {}).map(([name, change]) => ({ [name]: change }));

const nameOf = (row: { id: number; name: string } | undefined) =>
  row ? { id: row.id, name: row.name } : { id: 0, name: "" };

/** A conversation's webhook data, once per batch, conversation, audience and origin. */
const webhookDataOf = (load: Load, row: ConversationRow) =>
  memoized(load.reads, `conversation-webhook:${row.id}:${load.audience}:${load.origin}`, () =>
    conversationWebhookData(load.db, row, load.origin, load.audience),
  );

async function conversationData(load: Load) {
  const row = await eventConversation(load.reads, load.event);
  return row ? { row, data: await webhookDataOf(load, row) } : null;
}

async function messageData(load: Load) {
  const { reads, event, origin, audience } = load;
  if (event.conversationId === null || !event.payload.message_id) {
    return null;
  }
  const [conversation, message] = await Promise.all([
    eventConversation(reads, event),
    eventMessage(reads, event),
  ]);
  // A private note is not the contact's to see, nor its edits.
  if (!conversation || !message || (message.private && audience === "contact")) {
    return null;
  }
  const byUser = message.senderType === "User" ? message.senderId : null;
  const [data, extras, account, inbox, email] = await Promise.all([
    webhookDataOf(load, conversation),
    eventMessageExtras(reads, event),
    batchAccount(reads, event.accountId),
    batchInbox(reads, message.inboxId),
    byUser === null ? undefined : userEmail(reads, byUser),
  ]);
  const key = senderKey(message);
  const sender = key ? (extras?.senders.get(key) ?? null) : null;
  return presentMessageWebhook(message, {
    // Chatwoot's webhook names a user sender by email too.
    sender: sender && email !== undefined ? { ...sender, email } : sender,
    attachments: extras?.files.get(message.id) ?? [],
    origin,
    inbox: nameOf(inbox),
    account: nameOf(account),
    conversation: data,
  });
}

async function contactData({ db, event, origin }: Load) {
  const id = event.payload.contact_id;
  const [contact, account] = await Promise.all([
    id ? findContact(db, event.accountId, id) : undefined,
    findAccount(db, event.accountId),
  ]);
  return contact ? presentContactWebhook(contact, nameOf(account), origin) : null;
}

async function typingData(load: Load) {
  const { db, event } = load;
  // Typing a private note is the agents' own business (the contact's sockets never see it).
  if (event.payload.is_private === true && load.audience === "contact") {
    return null;
  }
  const conversation = await conversationData(load);
  const typer = event.payload.typer as Typer | undefined;
  if (!conversation || !typer) {
    return null;
  }
  const user = await loadSender(db, SENDER_TYPES[typer.type], typer.id);
  return {
    user: user ?? { id: typer.id, name: typer.name, type: typer.type },
    conversation: conversation.data,
    is_private: event.payload.is_private ?? false,
  };
}

async function widgetData({ db, event, origin, audience }: Load) {
  const ci = event.payload.contact_inbox_id
    ? await findContactInboxRow(db, event.payload.contact_inbox_id)
    : undefined;
  if (!ci) {
    return null;
  }
  const [contact, inbox, account, current] = await Promise.all([
    findContact(db, event.accountId, ci.contactId),
    findInbox(db, event.accountId, ci.inboxId),
    findAccount(db, event.accountId),
    latestConversationOf(db, ci.id),
  ]);
  return {
    id: ci.id,
    contact: contact ? presentContactWebhook(contact, nameOf(account), origin) : null,
    inbox: nameOf(inbox),
    account: nameOf(account),
    current_conversation: current
      ? await conversationWebhookData(db, current, origin, audience)
      : null,
    source_id: ci.sourceId,
    event_info: event.payload.event_info ?? {},
  };
}

/**
 * The record an event is about, loaded now and shaped by the resources' webhook presenters;
 * null when it no longer exists or is not for `audience` (nothing is delivered then). The
 * contact's audience never gets a private note, wherever it would be nested: not as the event's
 * message, nor as a conversation's last message, nor as private typing.
 */
export async function loadEventData(
  reads: Reads,
  event: OutboxEvent,
  audience: WebhookAudience,
): Promise<EventData | null> {
  const origin = event.payload.origin ?? "";
  const load: Load = { db: reads.db, reads, event, origin, audience };
  const changed = { changed_attributes: changedJson(event.payload.changed_attributes) };
  const seq = event.conversationSeq === null ? {} : { conversation_seq: event.conversationSeq };
  let data: EventData | null;
  switch (event.name) {
    case "conversation_created":
      data = (await conversationData(load))?.data ?? null;
      break;
    case "conversation_updated":
    case "conversation_status_changed": {
      const found = await conversationData(load);
      data = found ? { ...found.data, ...changed } : null;
      break;
    }
    case "message_created":
    case "message_updated":
      data = await messageData(load);
      break;
    case "contact_created":
      data = await contactData(load);
      break;
    case "contact_updated": {
      const contact = await contactData(load);
      data = contact ? { ...contact, ...changed } : null;
      break;
    }
    case "conversation_typing_on":
    case "conversation_typing_off":
      data = await typingData(load);
      break;
    case "webwidget_triggered":
      data = await widgetData(load);
      break;
  }
  return data === null ? null : { ...data, ...seq };
}

/** The exact bytes sent and signed: `event` first, as Chatwoot's receivers read it. */
export const bodyFor = (name: string, data: EventData) => JSON.stringify({ event: name, ...data });
