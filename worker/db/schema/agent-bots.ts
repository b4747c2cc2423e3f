import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, jsonObject, updatedAt } from "./_common";
import { accounts } from "./accounts";
import { inboxes } from "./inboxes";

export const agentBots = sqliteTable("agent_bots", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  description: text("description"),
  thumbnail: text("thumbnail"),
  outgoingUrl: text("outgoing_url"),
  botType: text("bot_type").notNull().default("webhook"),
  botConfig: jsonObject("bot_config"),
  /** Null for system bots, usable by every account. */
  accountId: integer("account_id").references(() => accounts.id, { onDelete: "cascade" }),
  /** Signs deliveries to outgoing_url. */
  secret: text("secret").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Chatwoot allows one bot per inbox. */
export const agentBotInboxes = sqliteTable(
  "agent_bot_inboxes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    inboxId: integer("inbox_id")
      .notNull()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    agentBotId: integer("agent_bot_id")
      .notNull()
      .references(() => agentBots.id, { onDelete: "cascade" }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["active", "inactive"] })
      .notNull()
      .default("active"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("agent_bot_inboxes_inbox_unique").on(t.inboxId)],
);

export type AgentBotRow = typeof agentBots.$inferSelect;
