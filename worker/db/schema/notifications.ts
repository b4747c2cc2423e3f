import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, jsonPayload, updatedAt } from "./_common";
import { accounts } from "./accounts";
import { conversations } from "./conversations";
import { users } from "./users";

/** Chatwoot's notification types, as its API names them. */
export const NOTIFICATION_TYPES = [
  "conversation_creation",
  "conversation_assignment",
  "assigned_conversation_new_message",
  "conversation_mention",
  "participating_conversation_new_message",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** One notification of one user; the conversation is its primary actor (as in Chatwoot). */
export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    notificationType: text("notification_type").$type<NotificationType>().notNull(),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** "Message" or "User" (who assigned), as Chatwoot's secondary actor. */
    secondaryActorType: text("secondary_actor_type"),
    secondaryActorId: integer("secondary_actor_id"),
    /** The outbox event it came from: an event handled twice notifies once. */
    sourceEventId: integer("source_event_id").notNull(),
    readAt: integer("read_at"),
    snoozedUntil: integer("snoozed_until"),
    lastActivityAt: integer("last_activity_at").notNull(),
    meta: jsonPayload("meta"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("notifications_user_source").on(t.userId, t.sourceEventId, t.notificationType),
    index("notifications_user_account_activity").on(t.userId, t.accountId, t.lastActivityAt),
    index("notifications_conversation").on(t.conversationId),
  ],
);

/** Which notification types a user wants by email and by push, per account (flag names). */
export const notificationSettings = sqliteTable(
  "notification_settings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    emailFlags: text("email_flags", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    pushFlags: text("push_flags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("notification_settings_account_user").on(t.accountId, t.userId)],
);

/** Agents following a conversation (Chatwoot's conversation_participants). */
export const conversationParticipants = sqliteTable(
  "conversation_participants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("conversation_participants_unique").on(t.conversationId, t.userId),
    index("conversation_participants_user").on(t.userId),
  ],
);

/** Who was @mentioned where, last when (Chatwoot's mentions: the `mention` conversation list). */
export const mentions = sqliteTable(
  "mentions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    mentionedAt: integer("mentioned_at").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("mentions_conversation_user").on(t.conversationId, t.userId),
    index("mentions_user").on(t.userId),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
export type NotificationSettingRow = typeof notificationSettings.$inferSelect;
export type ParticipantRow = typeof conversationParticipants.$inferSelect;
