import { type SQLWrapper, sql } from "drizzle-orm";
import { customType, integer, text } from "drizzle-orm/sqlite-core";
import { parseStoredJson } from "../../lib/json-bounds";

/** Unix seconds, set by SQLite so every writer agrees on the clock. */
export const createdAt = () => integer("created_at").notNull().default(sql`(unixepoch())`);
export const updatedAt = () => integer("updated_at").notNull().default(sql`(unixepoch())`);

const boundedJsonText = customType<{ data: Record<string, unknown>; driverData: string }>({
  dataType: () => "text",
  toDriver: (value) => JSON.stringify(value),
  // Read back within the bounds (lib/json-bounds.ts): a row written before the limits, or
  // straight into D1, is presented cut down rather than failing every list it appears in.
  fromDriver: (value) => parseStoredJson(value),
});

/** Free-form JSON object column (attributes, settings): clamped to the JSON bounds on read. */
export const jsonObject = (name: string) => boundedJsonText(name).notNull().default(sql`'{}'`);

/** A JSON object the service builds itself (event payloads): read back as stored. */
export const jsonPayload = (name: string) =>
  text(name, { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`);

/**
 * A JSON column as SQLite's JSON functions may read it: `'{}'` for a stored value they reject
 * (SQLite refuses nesting past 1,000 levels as malformed, an error for the whole statement).
 */
export const readableJson = (column: SQLWrapper) =>
  sql`(CASE WHEN json_valid(${column}) THEN ${column} ELSE '{}' END)`;
