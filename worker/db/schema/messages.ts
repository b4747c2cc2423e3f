import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, jsonObject, updatedAt } from "./_common";
import { accounts } from "./accounts";
import { conversations } from "./conversations";

/** Chatwoot's integer message types: incoming 0, outgoing 1, activity 2, template 3. */
export const MESSAGE_TYPES = ["incoming", "outgoing", "activity", "template"] as const;
export type MessageTypeName = (typeof MESSAGE_TYPES)[number];
export const MESSAGE_STATUSES = ["sent", "delivered", "read", "failed"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export type SenderType = "User" | "Contact" | "AgentBot";

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    inboxId: integer("inbox_id").notNull(),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** Per-conversation order, allocated by the conversation's ConversationRoom. */
    seq: integer("seq").notNull(),
    content: text("content"),
    messageType: integer("message_type").notNull(),
    contentType: text("content_type").notNull().default("text"),
    contentAttributes: jsonObject("content_attributes"),
    private: integer("private", { mode: "boolean" }).notNull().default(false),
    status: text("status").$type<MessageStatus>().notNull().default("sent"),
    sourceId: text("source_id"),
    senderType: text("sender_type").$type<SenderType>(),
    senderId: integer("sender_id"),
    externalSourceIds: jsonObject("external_source_ids"),
    additionalAttributes: jsonObject("additional_attributes"),
    sentiment: jsonObject("sentiment"),
    echoId: text("echo_id"),
    idempotencyKey: text("idempotency_key"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("messages_conversation_seq_unique").on(t.conversationId, t.seq),
    uniqueIndex("messages_conversation_idempotency_unique").on(t.conversationId, t.idempotencyKey),
    index("messages_account_created").on(t.accountId, t.createdAt),
    // unread_count: a conversation's incoming messages after a time, without reading the rest.
    index("messages_conversation_type_created").on(t.conversationId, t.messageType, t.createdAt),
    // CSAT metrics count the surveys sent (with or without a range) from these rows only: a
    // partial index holds just the input_csat messages, so a count never walks the account's
    // messages and costs other messages' writes nothing.
    index("messages_account_csat_created")
      .on(t.accountId, t.createdAt)
      .where(sql`content_type = 'input_csat'`),
  ],
);

export const ATTACHMENT_FILE_TYPES = [
  "image",
  "audio",
  "video",
  "file",
  "location",
  "fallback",
] as const;
export type AttachmentFileType = (typeof ATTACHMENT_FILE_TYPES)[number];

export const attachments = sqliteTable(
  "attachments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    fileType: text("file_type").$type<AttachmentFileType>().notNull(),
    /** Object key in the FILES R2 bucket. */
    storageKey: text("storage_key").notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    fileSize: integer("file_size").notNull(),
    width: integer("width"),
    height: integer("height"),
    createdAt: createdAt(),
  },
  (t) => [index("attachments_message").on(t.messageId)],
);

export type MessageRow = typeof messages.$inferSelect;
export type AttachmentRow = typeof attachments.$inferSelect;

/**
 * The service's id counters handed out in blocks (`messages`: message ids). A conversation's room
 * leases a block and numbers its messages from it, so an id costs no D1 round trip of its own
 * and is known before the message's batch runs (its outbox rows and files name it directly).
 */
export const idLeases = sqliteTable("id_leases", {
  name: text("name").primaryKey(),
  /** The first id not leased yet. */
  nextId: integer("next_id").notNull(),
});
