import type { AttachmentRow, ConversationRow, MessageRow } from "../../db/schema";
import { isoFromSeconds } from "../../lib/time";
import { presentConversationSummary } from "../conversations/presenter";
import { fileUrl } from "../files/storage";
import type { FeedFrame } from "../live/frames";
import type { ConversationWebhook, MessageWebhook } from "../webhooks/schema.payloads";
import type { Attachment, Message, PublicMessage, Sender } from "./schema";
import { MESSAGE_TYPE_CODES, MESSAGE_TYPE_NAMES } from "./types";

/** What a message needs from its conversation, loaded once per conversation, not per message. */
export type MessageConversationContext = {
  displayId: number;
  assigneeId: number | null;
  unreadCount: number;
  lastActivityAt: number;
  sourceId: string | null;
};

export type MessageExtras = {
  sender: Sender | null;
  attachments: AttachmentRow[];
  origin: string;
};

export function presentAttachment(row: AttachmentRow, origin: string): Attachment {
  const url = fileUrl(origin, row.storageKey);
  const extension = /\.([a-z0-9]+)$/i.exec(row.fileName)?.[1]?.toLowerCase() ?? null;
  return {
    id: row.id,
    message_id: row.messageId,
    account_id: row.accountId,
    file_type: row.fileType,
    extension,
    data_url: url,
    thumb_url: row.fileType === "image" ? url : "",
    file_size: row.fileSize,
    width: row.width,
    height: row.height,
    fallback_title: row.fileName,
    coordinates_lat: null,
    coordinates_long: null,
    transcribed_text: null,
    meta: {},
  };
}

/** The account API's message (Chatwoot's push-event shape). */
export function presentMessage(
  row: MessageRow,
  conversation: MessageConversationContext,
  extras: MessageExtras,
): Message {
  const attachments = extras.attachments.map((a) => presentAttachment(a, extras.origin));
  return {
    id: row.id,
    content: row.content,
    account_id: row.accountId,
    inbox_id: row.inboxId,
    conversation_id: conversation.displayId,
    message_type: row.messageType,
    seq: row.seq,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    private: row.private,
    status: row.status,
    source_id: row.sourceId,
    content_type: row.contentType,
    content_attributes: row.contentAttributes,
    sender_type: row.senderType,
    sender_id: row.senderId,
    external_source_ids: row.externalSourceIds,
    additional_attributes: row.additionalAttributes,
    processed_message_content: row.content,
    sentiment: row.sentiment,
    echo_id: row.echoId,
    conversation: {
      assignee_id: conversation.assigneeId,
      unread_count: conversation.unreadCount,
      last_activity_at: conversation.lastActivityAt,
      contact_inbox: { source_id: conversation.sourceId },
    },
    attachment: attachments[0] ?? null,
    attachments,
    sender: extras.sender,
  };
}

/**
 * A contact sender as visitors see it: which contact and nothing personal. The one contact of a
 * conversation is the visitor itself, whose client has its profile from its contact session;
 * and a session that joined its contact by an unverified identifier must not read the
 * contact's name, email or attributes here (docs/public-api.md).
 */
const visitorFacingSender = (sender: Sender | null): Sender | null =>
  sender?.type === "contact"
    ? { id: sender.id, name: "", type: "contact", avatar_url: "", thumbnail: "" }
    : sender;

/** The public API's message (spec "Public message"): no private notes reach this far. */
export function presentPublicMessage(
  row: MessageRow,
  displayId: number,
  extras: MessageExtras,
): PublicMessage {
  return {
    id: row.id,
    content: row.content,
    message_type: row.messageType,
    content_type: row.contentType,
    content_attributes: row.contentAttributes,
    created_at: row.createdAt,
    conversation_id: displayId,
    seq: row.seq,
    status: row.status,
    echo_id: row.echoId,
    attachments: extras.attachments.map((a) => presentAttachment(a, extras.origin)),
    sender: visitorFacingSender(extras.sender),
  };
}

/**
 * A stored message as a room's two audiences see it: agents every message, the contact only
 * public ones (null for a private note): the frames a room broadcasts, and their data.
 */
export function presentForRoom<E extends "message.created" | "message.updated">(
  event: E,
  row: MessageRow,
  context: MessageConversationContext,
  extras: MessageExtras,
) {
  const forAgents = presentMessage(row, context, extras);
  const forContact = row.private ? null : presentPublicMessage(row, context.displayId, extras);
  return {
    agent: { event, data: forAgents },
    contact: forContact === null ? null : { event, data: forContact },
  };
}

/**
 * A group of messages the room committed as the account feed (agents' lists) sees it: its last
 * non-activity message (activity messages come with conversation events of their own) in the
 * conversation as the write left it, so a list moves without reading it again; null when there
 * is none. A private note is included: the feed only speaks to agents of the conversation's
 * inbox.
 */
export function presentForFeed(
  conversation: ConversationRow,
  messages: Message[],
  unreadCount: number,
): FeedFrame | null {
  const last = [...messages].reverse().find((m) => m.message_type !== MESSAGE_TYPE_CODES.activity);
  if (!last) {
    return null;
  }
  return {
    event: "message.created",
    data: {
      ...presentConversationSummary(conversation),
      unread_count: unreadCount,
      last_non_activity_message: last,
    },
  };
}

export type MessageWebhookParts = {
  sender: Sender | null;
  attachments: AttachmentRow[];
  origin: string;
  inbox: { id: number; name: string };
  account: { id: number; name: string };
  conversation: ConversationWebhook;
};

/**
 * The webhook variant (Chatwoot's message `webhook_data`): message_type as a string and
 * created_at as ISO 8601, unlike the REST shape; the conversation's webhook data nested.
 */
export function presentMessageWebhook(row: MessageRow, parts: MessageWebhookParts): MessageWebhook {
  return {
    id: row.id,
    content: row.content,
    content_type: row.contentType,
    content_attributes: row.contentAttributes,
    message_type: MESSAGE_TYPE_NAMES[row.messageType] ?? "outgoing",
    private: row.private,
    status: row.status,
    source_id: row.sourceId,
    echo_id: row.echoId,
    seq: row.seq,
    created_at: isoFromSeconds(row.createdAt),
    additional_attributes: row.additionalAttributes,
    sender: parts.sender,
    inbox: parts.inbox,
    account: parts.account,
    conversation: parts.conversation,
    attachments: parts.attachments.map((a) => presentAttachment(a, parts.origin)),
  };
}
