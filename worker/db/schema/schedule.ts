import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Where each of the cron tick's bounded reads stopped (`assignment_drain`: the last inbox id it
 * sent). The next tick goes on after it and wraps around, so with more due than one tick takes,
 * every row is reached within a bounded number of ticks instead of the same lowest ids each time.
 */
export const tickCursors = sqliteTable("tick_cursors", {
  name: text("name").primaryKey(),
  after: integer("after").notNull(),
});
