import { z } from "@hono/zod-openapi";
import { MESSAGE_STATUSES } from "../../db/schema";

export const AttachmentSchema = z
  .object({
    id: z.number().int(),
    message_id: z.number().int(),
    account_id: z.number().int(),
    file_type: z.string().openapi({ example: "image" }),
    extension: z.string().nullable(),
    data_url: z.string(),
    thumb_url: z.string(),
    file_size: z.number().int(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    fallback_title: z.string().nullable(),
    coordinates_lat: z.number().nullable(),
    coordinates_long: z.number().nullable(),
    transcribed_text: z.string().nullable(),
    meta: z.record(z.string(), z.unknown()),
  })
  .openapi("Attachment");

/** A message's author; besides the common keys, each type adds its own (all declared here). */
export const SenderSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    type: z.enum(["user", "contact", "agent_bot"]),
    avatar_url: z.string(),
    thumbnail: z.string(),
    available_name: z.string().optional().openapi({ description: "Users only" }),
    email: z.string().nullable().optional().openapi({ description: "Contacts only" }),
    phone_number: z.string().nullable().optional().openapi({ description: "Contacts only" }),
    identifier: z.string().nullable().optional().openapi({ description: "Contacts only" }),
    blocked: z.boolean().optional().openapi({ description: "Contacts only" }),
    additional_attributes: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "Contacts only" }),
    custom_attributes: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "Contacts only" }),
    description: z.string().nullable().optional().openapi({ description: "Agent bots only" }),
  })
  .openapi("MessageSender");

export const MessageSchema = z
  .object({
    id: z.number().int(),
    content: z.string().nullable(),
    account_id: z.number().int(),
    inbox_id: z.number().int(),
    conversation_id: z.number().int().openapi({ description: "display_id of the conversation" }),
    message_type: z
      .number()
      .int()
      .openapi({ description: "0 incoming, 1 outgoing, 2 activity, 3 template" }),
    seq: z
      .number()
      .int()
      .openapi({ description: "Position in the conversation, gap-free and ordered" }),
    created_at: z.number().int(),
    updated_at: z.number().int(),
    private: z.boolean(),
    status: z.enum(MESSAGE_STATUSES),
    source_id: z.string().nullable(),
    content_type: z.string(),
    content_attributes: z.record(z.string(), z.unknown()),
    sender_type: z.enum(["User", "Contact", "AgentBot"]).nullable(),
    sender_id: z.number().int().nullable(),
    external_source_ids: z.record(z.string(), z.unknown()),
    additional_attributes: z.record(z.string(), z.unknown()),
    processed_message_content: z.string().nullable(),
    sentiment: z.record(z.string(), z.unknown()),
    echo_id: z.string().nullable(),
    conversation: z.object({
      assignee_id: z.number().int().nullable(),
      unread_count: z.number().int(),
      last_activity_at: z.number().int(),
      contact_inbox: z.object({ source_id: z.string().nullable() }),
    }),
    attachment: AttachmentSchema.nullable(),
    attachments: z.array(AttachmentSchema),
    sender: SenderSchema.nullable(),
  })
  .openapi("Message");

export type Message = z.infer<typeof MessageSchema>;
export type Sender = z.infer<typeof SenderSchema>;
export type Attachment = z.infer<typeof AttachmentSchema>;

/** The spec's "Public message": what a contact may see of a message (never a private note). */
export const PublicMessageSchema = MessageSchema.pick({
  id: true,
  content: true,
  message_type: true,
  content_type: true,
  content_attributes: true,
  created_at: true,
  conversation_id: true,
  seq: true,
  status: true,
  echo_id: true,
  attachments: true,
  sender: true,
}).openapi("PublicMessage");

export type PublicMessage = z.infer<typeof PublicMessageSchema>;
