import { z } from "@hono/zod-openapi";
import { CONVERSATION_PRIORITIES, CONVERSATION_STATUSES } from "../../db/schema";
import { AttachmentSchema, MessageSchema, SenderSchema } from "../messages/schema";

/**
 * Chatwoot's webhook bodies (`webhook_data` of each record, plus `event`), as Parley sends them.
 * Presenters are typed by these schemas; nothing builds a payload by hand.
 */
const jsonObject = z.record(z.string(), z.unknown());

export const NamedRefSchema = z.object({ id: z.number().int(), name: z.string() });

/** Chatwoot's changed_attributes: an array of one-key objects. */
export const ChangedAttributesSchema = z.array(
  z.record(z.string(), z.object({ previous_value: z.unknown(), current_value: z.unknown() })),
);

export const ContactInboxWebhookSchema = z.object({
  id: z.number().int(),
  contact_id: z.number().int(),
  inbox_id: z.number().int(),
  source_id: z.string(),
  hmac_verified: z.boolean(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});

export const ConversationWebhookSchema = z
  .object({
    id: z.number().int().openapi({ description: "The display_id" }),
    uuid: z.string(),
    account_id: z.number().int(),
    inbox_id: z.number().int(),
    channel: z.string(),
    can_reply: z.boolean(),
    contact_inbox: ContactInboxWebhookSchema.nullable(),
    messages: z.array(MessageSchema),
    labels: z.array(z.string()),
    meta: z.object({
      sender: SenderSchema,
      assignee: SenderSchema.nullable(),
      team: NamedRefSchema.nullable(),
      hmac_verified: z.boolean(),
    }),
    status: z.enum(CONVERSATION_STATUSES),
    priority: z.enum(CONVERSATION_PRIORITIES).nullable(),
    muted: z.boolean(),
    additional_attributes: jsonObject,
    custom_attributes: jsonObject,
    snoozed_until: z.number().int().nullable(),
    unread_count: z.number().int(),
    first_reply_created_at: z.number().int().nullable(),
    waiting_since: z.number().int().nullable(),
    agent_last_seen_at: z.number().int(),
    contact_last_seen_at: z.number().int(),
    last_activity_at: z.number().int(),
    timestamp: z.number().int(),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi("ConversationWebhookData");

export const MessageWebhookSchema = z
  .object({
    id: z.number().int(),
    content: z.string().nullable(),
    content_type: z.string(),
    content_attributes: jsonObject,
    message_type: z.enum(["incoming", "outgoing", "activity", "template"]),
    private: z.boolean(),
    status: z.string(),
    source_id: z.string().nullable(),
    echo_id: z.string().nullable(),
    seq: z.number().int(),
    created_at: z.string().openapi({ description: "ISO 8601 (Chatwoot's webhook encoding)" }),
    additional_attributes: jsonObject,
    sender: SenderSchema.nullable(),
    inbox: NamedRefSchema,
    account: NamedRefSchema,
    conversation: ConversationWebhookSchema,
    attachments: z.array(AttachmentSchema),
  })
  .openapi("MessageWebhookData");

export const ContactWebhookSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
    identifier: z.string().nullable(),
    avatar: z.string(),
    thumbnail: z.string(),
    blocked: z.boolean(),
    additional_attributes: jsonObject,
    custom_attributes: jsonObject,
    account: NamedRefSchema,
  })
  .openapi("ContactWebhookData");

export type ConversationWebhook = z.infer<typeof ConversationWebhookSchema>;
export type MessageWebhook = z.infer<typeof MessageWebhookSchema>;
export type ContactWebhook = z.infer<typeof ContactWebhookSchema>;
export type ChangedAttributesJson = z.infer<typeof ChangedAttributesSchema>;
