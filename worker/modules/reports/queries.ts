import { and, asc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  accountUsers,
  conversationLabels,
  conversations,
  inboxes,
  labels,
  type RollupDimension,
  reportingEvents,
  reportingRollups,
  teams,
  users,
} from "../../db/schema";
import type { Grain, Span } from "./range";

/** Sums of one metric for one id of a dimension. */
export type Totals = { id: number; metric: string; count: number; sum: number; sumBh: number };

const sums = {
  count: sql<number>`SUM(${reportingRollups.count})`.mapWith(Number),
  sum: sql<number>`SUM(${reportingRollups.sumValue})`.mapWith(Number),
  sumBh: sql<number>`SUM(${reportingRollups.sumValueInBusinessHours})`.mapWith(Number),
};

/** Rollups of one grain over one span of periods, per id and metric (primary-key range scan). */
export const rollupTotals = (
  db: Db,
  accountId: number,
  dimension: RollupDimension,
  grain: Grain,
  metrics: string[],
  span: Span,
  id?: number,
) =>
  db
    .select({ id: reportingRollups.dimensionId, metric: reportingRollups.metric, ...sums })
    .from(reportingRollups)
    .where(
      and(
        eq(reportingRollups.accountId, accountId),
        eq(reportingRollups.dimension, dimension),
        eq(reportingRollups.grain, grain),
        inArray(reportingRollups.metric, metrics),
        gte(reportingRollups.period, span.from),
        lt(reportingRollups.period, span.to),
        id === undefined ? undefined : eq(reportingRollups.dimensionId, id),
      ),
    )
    .groupBy(reportingRollups.dimensionId, reportingRollups.metric);

/** The id a raw event counts under, per dimension (labels: the conversation's current ones). */
const rawId: Record<RollupDimension, SQL> = {
  account: sql`0`,
  user: sql`${reportingEvents.userId}`,
  team: sql`${reportingEvents.teamId}`,
  inbox: sql`${reportingEvents.inboxId}`,
  label: sql`l.id`,
};

/** As the rollup trigger: a labelled event under its label, others under the current labels. */
const labelJoin = sql`JOIN ${labels} l ON l.account_id = ${reportingEvents.accountId} AND (
  l.id = ${reportingEvents.labelId} OR (${reportingEvents.labelId} IS NULL AND EXISTS (
    SELECT 1 FROM ${conversationLabels} cl
    WHERE cl.conversation_id = ${reportingEvents.conversationId} AND cl.title = l.title)))`;

/** Raw reporting events of a span (a range's partial edge days), summed like rollups. */
export const rawTotals = (db: Db, ...args: Parameters<typeof rawTotalsQuery>) =>
  db.all<Totals>(rawTotalsQuery(...args));

export function rawTotalsQuery(
  accountId: number,
  dimension: RollupDimension,
  metrics: string[],
  span: Span,
  id?: number,
) {
  const idExpr = rawId[dimension];
  const join = dimension === "label" ? labelJoin : sql``;
  const only = id === undefined ? sql`` : sql`AND ${idExpr} = ${id}`;
  return sql`SELECT ${idExpr} AS id, ${reportingEvents.name} AS metric,
      COUNT(*) AS count, SUM(${reportingEvents.value}) AS sum,
      SUM(${reportingEvents.valueInBusinessHours}) AS sumBh
    FROM ${reportingEvents} ${join}
    WHERE ${reportingEvents.accountId} = ${accountId}
      AND ${inArray(reportingEvents.name, metrics)}
      AND ${reportingEvents.createdAt} >= ${span.from} AND ${reportingEvents.createdAt} < ${span.to}
      AND ${idExpr} IS NOT NULL ${only}
    GROUP BY 1, 2`;
}

/** Rollups of one id and metric per period of `grain` (a time series' whole hours or days). */
export const periodSeries = (
  db: Db,
  accountId: number,
  dimension: RollupDimension,
  id: number,
  grain: Grain,
  metric: string,
  span: Span,
) =>
  db
    .select({ period: reportingRollups.period, ...sums })
    .from(reportingRollups)
    .where(
      and(
        eq(reportingRollups.dimensionId, id),
        eq(reportingRollups.accountId, accountId),
        eq(reportingRollups.dimension, dimension),
        eq(reportingRollups.grain, grain),
        eq(reportingRollups.metric, metric),
        gte(reportingRollups.period, span.from),
        lt(reportingRollups.period, span.to),
      ),
    )
    .groupBy(reportingRollups.period);

/** Raw events of one id and metric in a span, one row each (series edges, local-day buckets). */
export const rawEvents = (db: Db, ...args: Parameters<typeof rawEventsQuery>) =>
  db.all<{ at: number; value: number; bh: number }>(rawEventsQuery(...args));

export function rawEventsQuery(
  accountId: number,
  dimension: RollupDimension,
  id: number,
  metric: string,
  span: Span,
) {
  const join = dimension === "label" ? labelJoin : sql``;
  return sql`SELECT
      ${reportingEvents.createdAt} AS at, ${reportingEvents.value} AS value,
      ${reportingEvents.valueInBusinessHours} AS bh
    FROM ${reportingEvents} ${join}
    WHERE ${reportingEvents.accountId} = ${accountId} AND ${reportingEvents.name} = ${metric}
      AND ${reportingEvents.createdAt} >= ${span.from} AND ${reportingEvents.createdAt} < ${span.to}
      AND ${rawId[dimension]} = ${id}`;
}

/** Every member of the account (E17 lists each, zeros included), in id order. */
export const accountMembers = (db: Db, accountId: number) =>
  db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(accountUsers)
    .innerJoin(users, eq(users.id, accountUsers.userId))
    .where(eq(accountUsers.accountId, accountId))
    .orderBy(asc(users.id))
    .all();

export const accountTeams = (db: Db, accountId: number) =>
  db
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(eq(teams.accountId, accountId))
    .orderBy(asc(teams.id))
    .all();

export const accountInboxes = (db: Db, accountId: number) =>
  db
    .select({ id: inboxes.id, name: inboxes.name })
    .from(inboxes)
    .where(eq(inboxes.accountId, accountId))
    .orderBy(asc(inboxes.id))
    .all();

export const accountLabels = (db: Db, accountId: number) =>
  db
    .select({ id: labels.id, name: labels.title })
    .from(labels)
    .where(eq(labels.accountId, accountId))
    .orderBy(asc(labels.id))
    .all();

/** Live counts of the account's conversations (reports/conversations), optionally per assignee. */
export function liveCounts(db: Db, accountId: number, byAssignee: boolean) {
  const c = conversations;
  const unattended = sql`${c.status} = 'open' AND (${c.firstReplyCreatedAt} IS NULL OR ${c.waitingSince} IS NOT NULL)`;
  return db
    .select({
      assigneeId: byAssignee ? c.assigneeId : sql<null>`NULL`,
      open: sql<number>`COALESCE(SUM(${c.status} = 'open'), 0)`.mapWith(Number),
      pending: sql<number>`COALESCE(SUM(${c.status} = 'pending'), 0)`.mapWith(Number),
      unassigned:
        sql<number>`COALESCE(SUM(${c.status} = 'open' AND ${c.assigneeId} IS NULL), 0)`.mapWith(
          Number,
        ),
      unattended: sql<number>`COALESCE(SUM(${unattended}), 0)`.mapWith(Number),
    })
    .from(c)
    .where(eq(c.accountId, accountId))
    .groupBy(byAssignee ? c.assigneeId : sql`1`)
    .all();
}
