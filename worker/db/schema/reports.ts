import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";
import { inboxes } from "./inboxes";

/**
 * Chatwoot's reporting events (conversation_resolved, first_response, reply_time,
 * conversation_bot_handoff, conversation_bot_resolved, conversation_opened) plus Parley's
 * counting facts (conversation_created, conversation_assigned, conversation_team_assigned,
 * conversation_labelled, message_incoming, message_outgoing). Written in the batch of the change that causes them,
 * derived from its domain events (modules/reports/derive.ts); docs/reports.md defines each.
 */
export const reportingEvents = sqliteTable(
  "reporting_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Seconds (durations) or 0 (counting facts). */
    value: real("value").notNull().default(0),
    /** The seconds of `value` inside the inbox's working hours (0 when they are disabled). */
    valueInBusinessHours: real("value_in_business_hours").notNull().default(0),
    inboxId: integer("inbox_id"),
    /** As at the event: the assignee, or the replying agent for reply facts. */
    userId: integer("user_id"),
    /** The conversation's team as at the event. */
    teamId: integer("team_id"),
    conversationId: integer("conversation_id"),
    eventStartTime: integer("event_start_time").notNull(),
    eventEndTime: integer("event_end_time").notNull(),
    /** When the event happened (= event_end_time); reports filter on it. */
    createdAt: integer("created_at").notNull(),
    /** conversation_labelled only: the label added (other facts count under every label the
     * conversation carries at the event). */
    labelId: integer("label_id"),
  },
  (t) => [
    // The edges of a report's range: one account's facts of some names between two times.
    index("reporting_events_account_name_created").on(t.accountId, t.name, t.createdAt),
    // A conversation's earlier facts (bot handoff time, last resolution).
    index("reporting_events_conversation_name").on(t.conversationId, t.name),
  ],
);

/**
 * `inbox_label`: conversation_labelled facts per inbox and label (the inbox-label matrix), the id
 * packing both as inbox_id * 2^32 + label_id (SQLite's 64-bit integers; read back in SQL).
 */
export const ROLLUP_DIMENSIONS = [
  "account",
  "user",
  "team",
  "inbox",
  "label",
  "inbox_label",
] as const;
export type RollupDimension = (typeof ROLLUP_DIMENSIONS)[number];

/**
 * Sums of reporting events per account, UTC hour, day, month or year, metric (event name) and
 * dimension (the account itself with id 0, a user, team, inbox or label; inbox_label above). The
 * inbox dimension also holds first_response counts per response-time bucket (metric
 * `first_response:0-1h` etc., queries.ts). Maintained by a trigger on reporting_events
 * (migrations 0012 to 0021, 0029), so every writer, the rebuild included, keeps
 * them exact in the same batch as the event. Stored WITHOUT ROWID (migration 0015: drizzle cannot
 * declare it), so a summary's range of periods is one contiguous read.
 */
export const reportingRollups = sqliteTable(
  "reporting_rollups",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    dimension: text("dimension").$type<RollupDimension>().notNull(),
    /** "hour", "day", "month" or "year": a calendar year is one row per key; hours serve the
     * edges of a range and local days at a timezone offset. */
    grain: text("grain").$type<"hour" | "day" | "month" | "year">().notNull(),
    metric: text("metric").notNull(),
    /** Unix seconds of the UTC hour's, day's, month's or year's start. */
    period: integer("period").notNull(),
    dimensionId: integer("dimension_id").notNull(),
    count: integer("count").notNull().default(0),
    sumValue: real("sum_value").notNull().default(0),
    sumValueInBusinessHours: real("sum_value_in_business_hours").notNull().default(0),
  },
  (t) => [
    // Summaries: every id of a dimension over a range of periods.
    primaryKey({
      columns: [t.accountId, t.dimension, t.grain, t.metric, t.period, t.dimensionId],
    }),
    // Time series of one id, covering (the sums ride in the index): migration 0015 stores the
    // table WITHOUT ROWID in primary-key order, so a non-covering index would cost a second
    // lookup per row and lose to a scan of every id's rows.
    // The id leads, so summaries (every id of a dimension: no id to seek) cannot use it and keep
    // the primary key; SQLite otherwise takes a covering index by account alone and reads every
    // rollup of the account (measured: 2 ms vs 130 ms for a year at 1M events).
    index("reporting_rollups_series_by_id").on(
      t.dimensionId,
      t.accountId,
      t.dimension,
      t.grain,
      t.metric,
      t.period,
      t.count,
      t.sumValue,
      t.sumValueInBusinessHours,
    ),
  ],
);

/**
 * Conversations per account, UTC hour or day of creation, inbox and **current** status: the
 * channel summary's counts (summary_reports/channel), read from these rows instead of one index
 * entry per conversation. Kept by triggers on conversations (migration 0034: insert, a change of
 * status, inbox or creation time, delete), so every writer keeps them exact in its own statement.
 * WITHOUT ROWID (the migration; drizzle cannot declare it): a range of periods is one read.
 */
export const conversationStatusRollups = sqliteTable(
  "conversation_status_rollups",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    grain: text("grain").$type<"hour" | "day">().notNull(),
    /** Unix seconds of the UTC hour's or day's start. */
    period: integer("period").notNull(),
    inboxId: integer("inbox_id").notNull(),
    status: text("status").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.grain, t.period, t.inboxId, t.status] })],
);

/**
 * An inbox's open intervals (UTC seconds, from its working hours in its timezone via Intl),
 * with the business seconds before each: business seconds between two times are two indexed
 * lookups, so business-hours values are computed in SQL inside the event's batch.
 */
export const reportingHours = sqliteTable(
  "reporting_hours",
  {
    inboxId: integer("inbox_id")
      .notNull()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    start: integer("start").notNull(),
    end: integer("end").notNull(),
    /** Business seconds from the calendar's start up to `start`. */
    before: integer("before").notNull(),
  },
  (t) => [primaryKey({ columns: [t.inboxId, t.start] })],
);

/** Which working-hours settings and span an inbox's reporting_hours were built from. */
export const reportingCalendars = sqliteTable("reporting_calendars", {
  inboxId: integer("inbox_id")
    .primaryKey()
    .references(() => inboxes.id, { onDelete: "cascade" }),
  signature: text("signature").notNull(),
  from: integer("from").notNull(),
  to: integer("to").notNull(),
});

export type ReportingEventRow = typeof reportingEvents.$inferSelect;
