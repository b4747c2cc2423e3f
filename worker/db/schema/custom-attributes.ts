import { sql } from "drizzle-orm";
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./_common";
import { accounts } from "./accounts";

export const ATTRIBUTE_DISPLAY_TYPES = [
  "text",
  "number",
  "currency",
  "percent",
  "link",
  "date",
  "list",
  "checkbox",
] as const;
export const ATTRIBUTE_MODELS = ["conversation_attribute", "contact_attribute"] as const;

export type AttributeDisplayType = (typeof ATTRIBUTE_DISPLAY_TYPES)[number];
export type AttributeModel = (typeof ATTRIBUTE_MODELS)[number];

export const customAttributeDefinitions = sqliteTable(
  "custom_attribute_definitions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    attributeDisplayName: text("attribute_display_name").notNull(),
    attributeKey: text("attribute_key").notNull(),
    attributeDisplayType: text("attribute_display_type").$type<AttributeDisplayType>().notNull(),
    attributeModel: text("attribute_model").$type<AttributeModel>().notNull(),
    attributeDescription: text("attribute_description"),
    attributeValues: text("attribute_values", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    regexPattern: text("regex_pattern"),
    regexCue: text("regex_cue"),
    defaultValue: text("default_value"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("custom_attribute_definitions_key_unique").on(
      t.accountId,
      t.attributeModel,
      t.attributeKey,
    ),
  ],
);

export type DefinitionRow = typeof customAttributeDefinitions.$inferSelect;
