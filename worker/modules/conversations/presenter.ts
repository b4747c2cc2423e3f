import type { ContactInboxRow, ContactRow, ConversationRow, TeamRow } from "../../db/schema";
import { presentAgent } from "../agents/presenter";
import type { AgentRow } from "../agents/queries";
import {
  presentContactInboxWebhook,
  presentContactSender,
  presentConversationContact,
} from "../contacts/presenter";
import type { PublicContact } from "../contacts/schema.public";
import type { ConversationForContact, ConversationSummary } from "../live/frames";
import type { Message, PublicMessage } from "../messages/schema";
import { presentTeam, presentTeamRef } from "../teams/presenter";
import { presentUserSender } from "../users/presenter";
import type { ConversationWebhook } from "../webhooks/schema.payloads";
import type { ConversationJson } from "./schema";
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
    contact_last_seen_seq: row.contactLastSeenSeq,
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

/** The public API's conversation: the record's own keys, public messages and the contact. */
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
    agent_last_seen_seq: row.agentLastSeenSeq,
    messages,
    contact,
  };
}

/**
 * The webhook variant (Chatwoot's conversation `webhook_data`): the record's keys narrowed from
 * the account API's record, plus the channel, the contact_inbox and push-event data as meta.
 */
export function presentConversationWebhook(
  row: ConversationRow,
  parts: ConversationParts,
): ConversationWebhook {
  const c = presentConversation(row, parts);
  const ci = parts.contactInbox;
  return {
    id: c.id,
    uuid: c.uuid,
    account_id: c.account_id,
    inbox_id: c.inbox_id,
    channel: parts.channelType,
    can_reply: c.can_reply,
    contact_inbox: ci ? presentContactInboxWebhook(ci) : null,
    messages: c.messages,
    labels: c.labels,
    meta: {
      sender: presentContactSender(parts.contact),
      assignee: parts.assignee ? presentUserSender(parts.assignee.user) : null,
      team: parts.team ? presentTeamRef(parts.team) : null,
      hmac_verified: c.meta.hmac_verified,
    },
    status: c.status,
    priority: c.priority,
    muted: c.muted,
    additional_attributes: c.additional_attributes,
    custom_attributes: c.custom_attributes,
    snoozed_until: c.snoozed_until,
    unread_count: c.unread_count,
    first_reply_created_at: c.first_reply_created_at,
    waiting_since: c.waiting_since,
    agent_last_seen_at: c.agent_last_seen_at,
    contact_last_seen_at: c.contact_last_seen_at,
    last_activity_at: c.last_activity_at,
    timestamp: c.timestamp,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

/** The slim conversation of live frames (rooms and the account feed). */
export function presentConversationSummary(row: ConversationRow): ConversationSummary {
  return {
    id: row.displayId,
    uuid: row.uuid,
    inbox_id: row.inboxId,
    contact_id: row.contactId,
    status: row.status,
    priority: row.priority,
    assignee_id: row.assigneeId,
    team_id: row.teamId,
    snoozed_until: row.snoozedUntil,
    muted: row.muted,
    last_activity_at: row.lastActivityAt,
    updated_at: row.updatedAt,
  };
}

/** What a contact's live socket learns about its own conversation. */
export function presentConversationForContact(row: ConversationRow): ConversationForContact {
  return { id: row.displayId, uuid: row.uuid, status: row.status, snoozed_until: row.snoozedUntil };
}
