import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt, jsonPayload, updatedAt } from "./_common";
import { accounts } from "./accounts";
import { inboxes } from "./inboxes";

/**
 * Domain events written in the same D1 batch as the change that caused them, then relayed to
 * the Queue; a row with no sent_at is re-sent by the cron sweep, so no event is lost.
 */
export const eventOutbox = sqliteTable(
  "event_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Chatwoot's event name, e.g. conversation_created. */
    name: text("name").notNull(),
    conversationId: integer("conversation_id"),
    /** Order of the event within its conversation, for receivers that order. */
    conversationSeq: integer("conversation_seq"),
    payload: jsonPayload("payload"),
    createdAt: createdAt(),
    sentAt: integer("sent_at"),
    /**
     * When the queue consumer ran its listeners. Relayed long ago and still null: the queue
     * message was lost (a local crash, or the queue gave up), so the cron's sweep relays it again.
     */
    doneAt: integer("done_at"),
  },
  (t) => [
    index("event_outbox_unsent").on(t.sentAt, t.id),
    index("event_outbox_undone").on(t.doneAt, t.sentAt),
  ],
);

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    inboxId: integer("inbox_id").references(() => inboxes.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    name: text("name"),
    subscriptions: text("subscriptions", { mode: "json" }).$type<string[]>().notNull(),
    /** whsec_ + base64 of 32 random bytes. */
    secret: text("secret").notNull(),
    /** Set when a receiver answered 410 Gone; disabled webhooks get nothing. */
    disabledAt: integer("disabled_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("webhooks_account").on(t.accountId),
    uniqueIndex("webhooks_account_url_unique").on(t.accountId, t.url),
  ],
);

export const DELIVERY_STATUSES = ["pending", "retrying", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type DeliveryTarget = "webhook" | "inbox" | "agent_bot" | "automation";

/** One event to one receiver: every attempt is logged on the row; the delivery id never changes. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    targetType: text("target_type").$type<DeliveryTarget>().notNull(),
    /** webhooks.id, inboxes.id or agent_bots.id, by target_type. */
    targetId: integer("target_id").notNull(),
    eventId: integer("event_id").notNull(),
    event: text("event").notNull(),
    /** X-Service-Delivery / webhook-id: the same on every retry. */
    deliveryId: text("delivery_id").notNull(),
    url: text("url").notNull(),
    /** The exact bytes sent (and signed). */
    body: text("body").notNull(),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** [{at, status_code, latency_ms, error}] */
    attemptLog: text("attempt_log", { mode: "json" })
      .$type<
        { at: number; status_code: number | null; latency_ms: number; error: string | null }[]
      >()
      .notNull()
      .default([]),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastLatencyMs: integer("last_latency_ms"),
    /** When the next attempt is due, or until when a running attempt holds the delivery. */
    nextAttemptAt: integer("next_attempt_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_delivery_unique").on(t.deliveryId),
    // A bot gets conversation_opened beside conversation_status_changed for one outbox event.
    uniqueIndex("webhook_deliveries_event_target_name_unique").on(
      t.eventId,
      t.targetType,
      t.targetId,
      t.event,
    ),
    index("webhook_deliveries_target").on(t.targetType, t.targetId, t.id),
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
  ],
);

export const automationRules = sqliteTable(
  "automation_rules",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    eventName: text("event_name").notNull(),
    conditions: text("conditions", { mode: "json" }).$type<unknown[]>().notNull(),
    actions: text("actions", { mode: "json" }).$type<unknown[]>().notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("automation_rules_account_event").on(t.accountId, t.eventName)],
);

/**
 * Which rule already ran on which outbox event. The queue hands an event over at least once
 * (any failing listener retries all of them); a rule claims (event, rule) here before acting,
 * so its actions run at most once per event. Pruned with the outbox rows (cron sweep).
 */
export const automationRuns = sqliteTable(
  "automation_runs",
  {
    /** event_outbox.id; no foreign key: outbox rows are pruned on their own schedule. */
    eventId: integer("event_id").notNull(),
    /** automation_rules.id; a deleted rule's runs simply age out. */
    ruleId: integer("rule_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.ruleId] }),
    // The every-minute prune reads old rows by age, not the whole table.
    index("automation_runs_created").on(t.createdAt),
  ],
);

export type OutboxRow = typeof eventOutbox.$inferSelect;
export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type RuleRow = typeof automationRules.$inferSelect;
