import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, jsonObject, updatedAt } from "./_common";
import { accounts } from "./accounts";

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    displayName: text("display_name"),
    email: text("email").notNull(),
    /** Salted PBKDF2 hash; null for users that only use API tokens. */
    passwordHash: text("password_hash"),
    avatarUrl: text("avatar_url"),
    confirmed: integer("confirmed", { mode: "boolean" }).notNull().default(true),
    messageSignature: text("message_signature"),
    uiSettings: jsonObject("ui_settings"),
    customAttributes: jsonObject("custom_attributes"),
    /** "SuperAdmin" for installation operators, null otherwise (Chatwoot's STI column). */
    type: text("type"),
    pubsubToken: text("pubsub_token").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

export const accountUsers = sqliteTable(
  "account_users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["agent", "administrator"] })
      .notNull()
      .default("agent"),
    availability: text("availability", { enum: ["online", "offline", "busy"] })
      .notNull()
      .default("online"),
    autoOffline: integer("auto_offline", { mode: "boolean" }).notNull().default(true),
    /** Since when the agent has a live socket to the account (null: none); the feed keeps it. */
    connectedAt: integer("connected_at"),
    inviterId: integer("inviter_id").references(() => users.id, { onDelete: "set null" }),
    activeAt: integer("active_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("account_users_account_user_unique").on(t.accountId, t.userId)],
);

export type UserRow = typeof users.$inferSelect;
export type AccountUserRow = typeof accountUsers.$inferSelect;
