import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, jsonObject, updatedAt } from "./_common";

/** The JSON path of the auto-resolve setting, written out (a partial index matches it literally). */
export const AUTO_RESOLVE_AFTER = sql.raw(`json_extract("settings", '$.auto_resolve_after')`);

export const accounts = sqliteTable(
  "accounts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    locale: text("locale").notNull().default("en"),
    domain: text("domain"),
    supportEmail: text("support_email"),
    status: text("status", { enum: ["active", "suspended"] })
      .notNull()
      .default("active"),
    /** auto_resolve_after, auto_resolve_message, auto_resolve_ignore_waiting */
    settings: jsonObject("settings"),
    customAttributes: jsonObject("custom_attributes"),
    /** feature flag -> enabled */
    features: text("features", { mode: "json" })
      .$type<Record<string, boolean>>()
      .notNull()
      .default({}),
    limits: jsonObject("limits"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The auto-resolve tick walks only the accounts that set it.
  (t) => [index("accounts_auto_resolve").on(t.id).where(sql`${AUTO_RESOLVE_AFTER} IS NOT NULL`)],
);

export type AccountRow = typeof accounts.$inferSelect;
