import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  conversationStatusRollups,
  conversations,
  inboxes,
  labels,
  reportingEvents,
} from "../../db/schema";
import type { Derived } from "./queries";
import { type Span, seriesPieces } from "./range";

/**
 * Chatwoot's first-response buckets (FirstResponseTimeDistributionBuilder), lower edge included:
 * each is a rollup metric of the inbox dimension (`first_response:1-4h`), written by the trigger
 * (migration 0029) with these same edges.
 */
export const FIRST_RESPONSE_BUCKETS = [
  { key: "0-1h", below: 3600 },
  { key: "1-4h", below: 14_400 },
  { key: "4-8h", below: 28_800 },
  { key: "8-24h", below: 86_400 },
  { key: "24h+", below: Number.POSITIVE_INFINITY },
] as const;
export type FirstResponseBucket = (typeof FIRST_RESPONSE_BUCKETS)[number]["key"];
export const bucketMetric = (key: FirstResponseBucket) => `first_response:${key}`;

/** Raw first_response events named by their bucket, as the trigger names their rollups. */
export const FIRST_RESPONSE_BY_BUCKET: Derived = {
  from: "first_response",
  metric: sql`CASE ${sql.join(
    FIRST_RESPONSE_BUCKETS.filter((b) => Number.isFinite(b.below)).map(
      (b) =>
        sql`WHEN ${reportingEvents.value} < ${sql.raw(String(b.below))} THEN ${bucketMetric(b.key)}`,
    ),
    sql` `,
  )} ELSE ${bucketMetric("24h+")} END`,
};

/**
 * Conversations created in [from, to) per inbox and current status (the channel summary): one
 * grouped read bounded by the range, not by the conversations in it. Whole UTC days and hours
 * come from their rollups (conversation_status_rollups, kept by triggers on conversations:
 * migration 0034), by primary key; only the minutes before the first and after the last whole
 * hour are read from conversations, one range each of the covering index
 * conversations_account_created. Six months are at most ~183 day rows and ~46 hour rows per
 * inbox and status, whatever the conversations.
 */
export function statusCountsByInbox(db: Db, accountId: number, span: Span) {
  const R = conversationStatusRollups;
  const C = conversations;
  const pieces = seriesPieces(span, 0);
  const arms = (pieces.length > 0 ? pieces : [{ source: "raw" as const, span }]).map((p) =>
    p.source === "raw"
      ? sql`SELECT ${C.inboxId} AS inbox_id, ${C.status} AS status, 1 AS n FROM ${C}
          WHERE ${C.accountId} = ${accountId} AND ${C.createdAt} >= ${p.span.from}
            AND ${C.createdAt} < ${p.span.to}`
      : sql`SELECT ${R.inboxId} AS inbox_id, ${R.status} AS status, ${R.count} AS n FROM ${R}
          WHERE ${R.accountId} = ${accountId} AND ${R.grain} = ${p.source}
            AND ${R.period} >= ${p.span.from} AND ${R.period} < ${p.span.to}`,
  );
  return db
    .select({
      inboxId: sql<number>`inbox_id`.mapWith(Number),
      status: sql<string>`status`,
      count: sql<number>`SUM(n)`.mapWith(Number),
    })
    .from(sql`(${sql.join(arms, sql` UNION ALL `)})`)
    .groupBy(sql`inbox_id`, sql`status`)
    .having(sql`SUM(n) <> 0`);
}

/** The account's inboxes with their channel type and name, by name (Chatwoot's matrix order). */
export const inboxChannels = (db: Db, accountId: number) =>
  db
    .select({ id: inboxes.id, name: inboxes.name, channelType: inboxes.channelType })
    .from(inboxes)
    .where(eq(inboxes.accountId, accountId))
    .orderBy(asc(inboxes.name), asc(inboxes.id));

/** The account's labels by title (Chatwoot's matrix order). */
export const labelsByTitle = (db: Db, accountId: number) =>
  db
    .select({ id: labels.id, title: labels.title })
    .from(labels)
    .where(eq(labels.accountId, accountId))
    .orderBy(asc(labels.title), asc(labels.id));
