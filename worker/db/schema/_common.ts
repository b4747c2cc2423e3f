import { sql } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";

/** Unix seconds, set by SQLite so every writer agrees on the clock. */
export const createdAt = () => integer("created_at").notNull().default(sql`(unixepoch())`);
export const updatedAt = () => integer("updated_at").notNull().default(sql`(unixepoch())`);

/** Free-form JSON object column. */
export const jsonObject = (name: string) =>
  text(name, { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`);
