import type { z } from "@hono/zod-openapi";
import type { ContactInboxRow, ContactRow, ConversationRow, TeamRow } from "../../db/schema";
import { presentAgent } from "../agents/presenter";
import type { AgentRow } from "../agents/queries";
import type { PublicContact } from "../contacts/schema.public";
import type { Message, PublicMessage } from "../messages/schema";
import { contactSender, userSender } from "../messages/senders";
import { presentTeam } from "../teams/presenter";
import type { ConversationWebhook } from "../webhooks/schema.payloads";
import type { ConversationContactSchema, ConversationJson } from "./schema";
import type { PublicConversation } from "./schema.public";

/** What a conversation record needs besides its row, already loaded (presenters never query). */
export type ConversationParts = {
  contact: ContactRow;
  contactInbox: ContactInboxRow | null;
  channelType: string;
  assignee: AgentRow | null;
  team: TeamRow | null;
  /** Whether the caller belongs to the team (the team record's `is_member`). */
  callerInTeam: boolean;
  labels: string[];
  lastMessage: Message | null;
  unreadCount: number;
};

const REPLYABLE_CHANNELS = new Set(["Channel::Api", "Channel::WebWidget"]);

/** Chatwoot's contact partial, without contact_inboxes, as the conversation's sender. */
export function presentConversationContact(
  row: ContactRow,
): z.infer<typeof ConversationContactSchema> {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone_number: row.phoneNumber,
    identifier: row.identifier,
    blocked: row.blocked,
    thumbnail: row.avatarUrl ?? "",
    // Contact presence is not tracked on the account API yet.
    availability_status: "offline",
    additional_attributes: row.additionalAttributes,
    custom_attributes: row.customAttributes,
    last_activity_at: row.lastActivityAt,
    created_at: row.createdAt,
  };
}

/**
 * The one conversation record (list, show, create, filter, contact conversations). `id` is the
 * display_id (Chatwoot parity); last-seen times are 0 until set, as Chatwoot sends them.
 */
export function presentConversation(
  row: ConversationRow,
  parts: ConversationParts,
): ConversationJson {
  return {
    id: row.displayId,
    account_id: row.accountId,
    uuid: row.uuid,
    inbox_id: row.inboxId,
    status: row.status,
    messages: parts.lastMessage ? [parts.lastMessage] : [],
    additional_attributes: row.additionalAttributes,
    custom_attributes: row.customAttributes,
    agent_last_seen_at: row.agentLastSeenAt ?? 0,
    assignee_last_seen_at: row.assigneeLastSeenAt ?? 0,
    contact_last_seen_at: row.contactLastSeenAt ?? 0,
    can_reply: REPLYABLE_CHANNELS.has(parts.channelType) && !parts.contact.blocked,
    labels: parts.labels,
    muted: row.muted,
    snoozed_until: row.snoozedUntil,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    timestamp: row.createdAt,
    first_reply_created_at: row.firstReplyCreatedAt,
    unread_count: parts.unreadCount,
    last_non_activity_message: parts.lastMessage,
    last_activity_at: row.lastActivityAt,
    priority: row.priority,
    waiting_since: row.waitingSince,
    sla_policy_id: null,
    applied_sla: {},
    sla_events: [],
    meta: {
      sender: presentConversationContact(parts.contact),
      channel: parts.channelType,
      assignee: parts.assignee ? presentAgent(parts.assignee) : null,
      team: parts.team ? presentTeam(parts.team, parts.callerInTeam) : null,
      hmac_verified: parts.contactInbox?.hmacVerified ?? false,
    },
  };
}

/** The public API's conversation: `id` is the display_id; last-seen times are 0 until set. */
export function presentPublicConversation(
  row: ConversationRow,
  messages: PublicMessage[],
  contact: PublicContact,
): PublicConversation {
  return {
    id: row.displayId,
    uuid: row.uuid,
    inbox_id: row.inboxId,
    status: row.status,
    contact_last_seen_at: row.contactLastSeenAt ?? 0,
    agent_last_seen_at: row.agentLastSeenAt ?? 0,
    messages,
    contact,
  };
}

/**
 * The webhook variant (Chatwoot's conversation `webhook_data`): `id` is the display_id, the
 * meta carries push-event data. The contact_inbox leaves out the pubsub_token, a live-socket
 * credential a receiver has no use for.
 */
export function presentConversationWebhook(
  row: ConversationRow,
  parts: ConversationParts,
): ConversationWebhook {
  const ci = parts.contactInbox;
  return {
    id: row.displayId,
    uuid: row.uuid,
    account_id: row.accountId,
    inbox_id: row.inboxId,
    channel: parts.channelType,
    can_reply: REPLYABLE_CHANNELS.has(parts.channelType) && !parts.contact.blocked,
    contact_inbox: ci
      ? {
          id: ci.id,
          contact_id: ci.contactId,
          inbox_id: ci.inboxId,
          source_id: ci.sourceId,
          hmac_verified: ci.hmacVerified,
          created_at: ci.createdAt,
          updated_at: ci.updatedAt,
        }
      : null,
    messages: parts.lastMessage ? [parts.lastMessage] : [],
    labels: parts.labels,
    meta: {
      sender: contactSender(parts.contact),
      assignee: parts.assignee ? userSender(parts.assignee.user) : null,
      team: parts.team ? { id: parts.team.id, name: parts.team.name } : null,
      hmac_verified: ci?.hmacVerified ?? false,
    },
    status: row.status,
    priority: row.priority,
    muted: row.muted,
    additional_attributes: row.additionalAttributes,
    custom_attributes: row.customAttributes,
    snoozed_until: row.snoozedUntil,
    unread_count: parts.unreadCount,
    first_reply_created_at: row.firstReplyCreatedAt,
    waiting_since: row.waitingSince,
    agent_last_seen_at: row.agentLastSeenAt ?? 0,
    contact_last_seen_at: row.contactLastSeenAt ?? 0,
    last_activity_at: row.lastActivityAt,
    timestamp: row.createdAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
