import { z } from "@hono/zod-openapi";
import { ContactInboxSchema, ContactSchema } from "../contacts/schema";
import { ConversationSchema } from "../conversations/schema";
import { MessageSchema, SenderSchema } from "../messages/schema";
import { MESSAGE_TYPE_NAMES } from "../messages/types";
import { TeamSchema } from "../teams/schema";

/**
 * Chatwoot's webhook bodies (`webhook_data` of each record, plus `event`), as Parley sends them.
 * Each is its record's response schema narrowed (`.pick`/`.omit`) and extended only where
 * Chatwoot's webhook shape really differs. Presenters are typed by these schemas; nothing
 * builds a payload by hand.
 */
const jsonObject = z.record(z.string(), z.unknown());

export const NamedRefSchema = z.object({ id: z.number().int(), name: z.string() });

/** Chatwoot's changed_attributes: an array of one-key objects. */
export const ChangedAttributesSchema = z.array(
  z.record(z.string(), z.object({ previous_value: z.unknown(), current_value: z.unknown() })),
);

/** The contact_inbox record itself (the REST shape nests the inbox instead of its id). */
export const ContactInboxWebhookSchema = ContactInboxSchema.omit({ inbox: true }).extend({
  id: z.number().int(),
  contact_id: z.number().int(),
  inbox_id: z.number().int(),
  hmac_verified: z.boolean(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});

/** The conversation's keys, its channel and contact_inbox, and push-event data as its meta. */
export const ConversationWebhookSchema = ConversationSchema.pick({
  id: true,
  uuid: true,
  account_id: true,
  inbox_id: true,
  can_reply: true,
  messages: true,
  labels: true,
  status: true,
  priority: true,
  muted: true,
  additional_attributes: true,
  custom_attributes: true,
  snoozed_until: true,
  unread_count: true,
  first_reply_created_at: true,
  waiting_since: true,
  agent_last_seen_at: true,
  contact_last_seen_at: true,
  last_activity_at: true,
  timestamp: true,
  created_at: true,
  updated_at: true,
})
  .extend({
    channel: z.string(),
    contact_inbox: ContactInboxWebhookSchema.nullable(),
    meta: z.object({
      sender: SenderSchema,
      assignee: SenderSchema.nullable(),
      team: TeamSchema.pick({ id: true, name: true }).nullable(),
      hmac_verified: z.boolean(),
    }),
  })
  .openapi("ConversationWebhookData");

/** message_type by name and created_at in ISO 8601, where the REST shape has numbers. */
export const MessageWebhookSchema = MessageSchema.pick({
  id: true,
  content: true,
  content_type: true,
  content_attributes: true,
  private: true,
  status: true,
  source_id: true,
  echo_id: true,
  seq: true,
  additional_attributes: true,
  sender: true,
  attachments: true,
})
  .extend({
    message_type: z.enum(MESSAGE_TYPE_NAMES),
    created_at: z.string().openapi({ description: "ISO 8601 (Chatwoot's webhook encoding)" }),
    inbox: NamedRefSchema,
    account: NamedRefSchema,
    conversation: ConversationWebhookSchema,
  })
  .openapi("MessageWebhookData");

/** The contact's own keys, the avatar under both names, and the account it belongs to. */
export const ContactWebhookSchema = ContactSchema.pick({
  id: true,
  name: true,
  email: true,
  phone_number: true,
  identifier: true,
  thumbnail: true,
  blocked: true,
  custom_attributes: true,
})
  .extend({
    avatar: z.string(),
    additional_attributes: jsonObject,
    account: NamedRefSchema,
  })
  .openapi("ContactWebhookData");

export type ContactInboxWebhook = z.infer<typeof ContactInboxWebhookSchema>;
export type ConversationWebhook = z.infer<typeof ConversationWebhookSchema>;
export type MessageWebhook = z.infer<typeof MessageWebhookSchema>;
export type ContactWebhook = z.infer<typeof ContactWebhookSchema>;
export type ChangedAttributesJson = z.infer<typeof ChangedAttributesSchema>;
