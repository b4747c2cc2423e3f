import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, jsonObject, jsonPayload, updatedAt } from "./_common";
import { accounts } from "./accounts";
import { contacts } from "./contacts";
import { users } from "./users";

/** Chatwoot's canned responses: account-wide replies an agent inserts by short code. */
export const cannedResponses = sqliteTable(
  "canned_responses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    shortCode: text("short_code").notNull(),
    content: text("content").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("canned_responses_account_short_code").on(t.accountId, t.shortCode)],
);

export const CUSTOM_FILTER_TYPES = ["conversation", "contact", "report"] as const;
export type CustomFilterType = (typeof CUSTOM_FILTER_TYPES)[number];

/** A user's saved filter (Chatwoot's custom_filters): private to its user within the account. */
export const customFilters = sqliteTable(
  "custom_filters",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    filterType: text("filter_type").$type<CustomFilterType>().notNull().default("conversation"),
    query: jsonObject("query"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("custom_filters_account_user_type").on(t.accountId, t.userId, t.filterType)],
);

/** Notes agents keep on a contact (Chatwoot's notes). */
export const contactNotes = sqliteTable(
  "contact_notes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    content: text("content").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("contact_notes_contact").on(t.contactId, t.createdAt)],
);

export type CannedResponseRow = typeof cannedResponses.$inferSelect;
export type CustomFilterRow = typeof customFilters.$inferSelect;
export type ContactNoteRow = typeof contactNotes.$inferSelect;

/** Chatwoot's macros: a named list of automation actions an agent runs on conversations. */
export const macros = sqliteTable(
  "macros",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** "personal": its creator's only; "global": every member's. */
    visibility: text("visibility").$type<"personal" | "global">().notNull().default("personal"),
    createdById: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
    updatedById: integer("updated_by_id").references(() => users.id, { onDelete: "set null" }),
    actions: text("actions", { mode: "json" }).$type<unknown[]>().notNull().default(sql`'[]'`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("macros_account").on(t.accountId)],
);

/** Administrators' changes (Chatwoot's audit logs), written in the batch of the change. */
export const auditLogs = sqliteTable(
  "audit_logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    userId: integer("user_id"),
    /** "create" | "update" | "destroy" (Chatwoot's audited actions). */
    action: text("action").notNull(),
    auditableType: text("auditable_type").notNull(),
    auditableId: integer("auditable_id"),
    auditedChanges: jsonPayload("audited_changes"),
    remoteAddress: text("remote_address"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_logs_account_id").on(t.accountId, t.id)],
);

export type MacroRow = typeof macros.$inferSelect;
export type AuditLogRow = typeof auditLogs.$inferSelect;

/** One frame of a dashboard app: Chatwoot's `{type: "frame", url}`. */
export type DashboardAppFrame = { type: "frame"; url: string };

/**
 * Chatwoot's dashboard apps: pages the agents' app shows in a tab beside a conversation, sent
 * the conversation's context by postMessage (docs/agent-tools.md). Account-wide.
 */
export const dashboardApps = sqliteTable(
  "dashboard_apps",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Who created it (Chatwoot's user_id); kept when they leave. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    content: text("content", { mode: "json" })
      .$type<DashboardAppFrame[]>()
      .notNull()
      .default(sql`'[]'`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("dashboard_apps_account").on(t.accountId)],
);

export type DashboardAppRow = typeof dashboardApps.$inferSelect;
