import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations, inboxes, labels, reportingEvents } from "../../db/schema";
import type { Derived } from "./queries";
import type { Span } from "./range";

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
 * range of the covering index conversations_account_created, no row of the table read.
 */
export const statusCountsByInbox = (db: Db, accountId: number, span: Span) =>
  db
    .select({
      inboxId: conversations.inboxId,
      status: conversations.status,
      count: sql<number>`COUNT(*)`.mapWith(Number),
    })
    .from(conversations)
    .where(
      and(
        eq(conversations.accountId, accountId),
        gte(conversations.createdAt, span.from),
        lt(conversations.createdAt, span.to),
      ),
    )
    .groupBy(conversations.inboxId, conversations.status);

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
