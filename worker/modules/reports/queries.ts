import { asc, eq, inArray, type SQL, sql } from "drizzle-orm";
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
import type { Grain, SeriesPiece, Source, Span } from "./range";

/** Sums of one metric for one id of a dimension. */
export type Totals = { id: number; metric: string; count: number; sum: number; sumBh: number };

/** One signed piece of a range: rollups of a grain, or raw events (docs/reports.md). */
export type Piece = { source: Source; span: Span; sign: 1 | -1 };

/** D1 refuses a compound SELECT of more than five terms: pieces are unioned five at a time. */
export const MAX_UNION = 5;

const R = reportingRollups;

/** inbox_label rollups pack both ids in one: inbox_id * 2^32 + label_id (the trigger's rule). */
export const PAIR_SHIFT = 32;

/** The id a raw event counts under, per dimension (labels: the conversation's current ones). */
const rawId: Record<RollupDimension, SQL> = {
  account: sql`0`,
  user: sql`${reportingEvents.userId}`,
  team: sql`${reportingEvents.teamId}`,
  inbox: sql`${reportingEvents.inboxId}`,
  label: sql`l.id`,
  inbox_label: sql`CASE WHEN ${reportingEvents.name} = 'conversation_labelled'
    THEN (${reportingEvents.inboxId} << ${sql.raw(String(PAIR_SHIFT))}) + ${reportingEvents.labelId} END`,
};

/** A metric that is not an event's name: raw events of `from`, named by `metric` (SQL). */
export type Derived = { from: string; metric: SQL };

/** As the rollup trigger: a labelled event under its label, others under the current labels. */
const labelJoin = sql`JOIN ${labels} l ON l.account_id = ${reportingEvents.accountId} AND (
  l.id = ${reportingEvents.labelId} OR (${reportingEvents.labelId} IS NULL AND EXISTS (
    SELECT 1 FROM ${conversationLabels} cl
    WHERE cl.conversation_id = ${reportingEvents.conversationId} AND cl.title = l.title)))`;

/** The union's arms' signed count and sums (n, v, b), added up. */
const signedSums = {
  count: sql<number>`SUM(n)`.mapWith(Number),
  sum: sql<number>`SUM(v)`.mapWith(Number),
  sumBh: sql<number>`SUM(b)`.mapWith(Number),
};

/** Rollup rows of one grain in a span (primary-key range: account, dimension, grain, metric). */
const rollupWhere = (
  accountId: number,
  dimension: RollupDimension,
  grain: Grain,
  metrics: string[],
  span: Span,
  id?: number,
) => sql`${R.accountId} = ${accountId} AND ${R.dimension} = ${dimension} AND ${R.grain} = ${grain}
  AND ${inArray(R.metric, metrics)} AND ${R.period} >= ${span.from} AND ${R.period} < ${span.to}
  ${id === undefined ? sql`` : sql`AND ${R.dimensionId} = ${id}`}`;

/** Raw events of a span, as the rollups would count them (the join for labels). */
const rawFrom = (
  accountId: number,
  dimension: RollupDimension,
  metrics: string[],
  span: Span,
  id?: number,
) => sql`FROM ${reportingEvents} ${dimension === "label" ? labelJoin : sql``}
  WHERE ${reportingEvents.accountId} = ${accountId} AND ${inArray(reportingEvents.name, metrics)}
    AND ${reportingEvents.createdAt} >= ${span.from} AND ${reportingEvents.createdAt} < ${span.to}
    AND ${rawId[dimension]} IS NOT NULL
    ${id === undefined ? sql`` : sql`AND ${rawId[dimension]} = ${id}`}`;

/** The union of up to five signed pieces: rows (id, metric, n, v, b). */
function signedArms(
  accountId: number,
  dimension: RollupDimension,
  metrics: string[],
  pieces: Piece[],
  id?: number,
  derived?: Derived,
) {
  const arms = pieces.map(({ source, span, sign }) => {
    const s = sql.raw(String(sign));
    return source === "raw"
      ? sql`SELECT ${rawId[dimension]} AS id, ${derived?.metric ?? reportingEvents.name} AS metric,
          ${s} AS n, ${s} * ${reportingEvents.value} AS v,
          ${s} * ${reportingEvents.valueInBusinessHours} AS b
          ${rawFrom(accountId, dimension, derived ? [derived.from] : metrics, span, id)}`
      : sql`SELECT ${R.dimensionId} AS id, ${R.metric} AS metric, ${s} * ${R.count} AS n,
          ${s} * ${R.sumValue} AS v, ${s} * ${R.sumValueInBusinessHours} AS b
          FROM ${R} WHERE ${rollupWhere(accountId, dimension, source, metrics, span, id)}`;
  });
  return sql`(${sql.join(arms, sql` UNION ALL `)})`;
}

/**
 * Up to five signed pieces summed per id and metric in one statement, so a summary's pieces
 * (years, months, less edge days and hours, plus raw minutes) come back as one row per id and
 * metric. `derived`: the metrics are not event names (first-response buckets).
 */
export function signedTotals(
  db: Db,
  accountId: number,
  dimension: RollupDimension,
  metrics: string[],
  pieces: Piece[],
  id?: number,
  derived?: Derived,
) {
  // A select builder over the union (not db.all): drizzle batches only prepared builders.
  return db
    .select({ id: sql<number>`id`, metric: sql<string>`metric`, ...signedSums })
    .from(signedArms(accountId, dimension, metrics, pieces, id, derived))
    .groupBy(sql`id, metric`);
}

/** Signed counts of conversation_labelled per inbox and label (the inbox_label dimension). */
export function pairCounts(db: Db, accountId: number, pieces: Piece[]) {
  const shift = sql.raw(String(PAIR_SHIFT));
  // The packed id is split in SQL: past 2^53 it would not survive a JavaScript number.
  return db
    .select({
      inboxId: sql<number>`id >> ${shift}`.mapWith(Number),
      labelId: sql<number>`id & ${sql.raw(String(2 ** PAIR_SHIFT - 1))}`.mapWith(Number),
      count: sql<number>`SUM(n)`.mapWith(Number),
    })
    .from(signedArms(accountId, "inbox_label", ["conversation_labelled"], pieces))
    .groupBy(sql`id`);
}

/**
 * A local day's start (UTC seconds) at `offset` seconds east of UTC, as SQL over `t`. The offset
 * is whole seconds (the query schema admits only hours like -5 or 5.75), written as a literal so
 * the arithmetic stays integer.
 */
const localDay = (t: SQL, offset: number) => {
  const o = sql.raw(String(Math.trunc(offset)));
  return sql`((${t}) + ${o}) - (((${t}) + ${o}) % 86400) - ${o}`;
};

/** Sums of one metric per local day (at `offset`) over up to five pieces of a time series. */
export type DaySums = { day: number; count: number; sum: number; sumBh: number };

/** A time series' pieces (range.ts: seriesPieces) summed per local day at `offset`. */
export function localDays(
  db: Db,
  accountId: number,
  dimension: RollupDimension,
  id: number,
  metric: string,
  offset: number,
  pieces: SeriesPiece[],
) {
  const E = reportingEvents;
  const arms = pieces.map((p) => {
    if (p.source === "raw") {
      return sql`SELECT ${localDay(sql`${E.createdAt}`, offset)} AS day, 1 AS n, ${E.value} AS v,
        ${E.valueInBusinessHours} AS b ${rawFrom(accountId, dimension, [metric], p.span, id)}`;
    }
    if (p.source === "split") {
      // One index range per split hour (a recursive list of their starts), not a scan of the span.
      return sql`SELECT ${localDay(sql`${E.createdAt}`, offset)} AS day, 1 AS n, ${E.value} AS v,
        ${E.valueInBusinessHours} AS b FROM (WITH RECURSIVE s(h) AS (SELECT ${p.span.from}
          UNION ALL SELECT h + ${p.every} FROM s WHERE h + ${p.every} < ${p.span.to}) SELECT h FROM s) s
        JOIN ${E} ON ${E.accountId} = ${accountId} AND ${E.name} = ${metric}
          AND ${E.createdAt} >= s.h AND ${E.createdAt} < s.h + 3600
        ${dimension === "label" ? labelJoin : sql``}
        WHERE ${rawId[dimension]} = ${id}`;
    }
    const whole = p.wholeHoursOnly
      ? sql`AND ${localDay(sql`${R.period}`, offset)} = ${localDay(sql`${R.period} + 3599`, offset)}`
      : sql``;
    return sql`SELECT ${localDay(sql`${R.period}`, offset)} AS day, ${R.count} AS n,
      ${R.sumValue} AS v, ${R.sumValueInBusinessHours} AS b FROM ${R}
      WHERE ${R.dimensionId} = ${id} AND ${rollupWhere(accountId, dimension, p.source, [metric], p.span)} ${whole}`;
  });
  return db
    .select({ day: sql<number>`day`.mapWith(Number), ...signedSums })
    .from(sql`(${sql.join(arms, sql` UNION ALL `)})`)
    .groupBy(sql`day`);
}

/** Every member of the account (E17 lists each, zeros included), in id order. */
export const accountMembers = (db: Db, accountId: number) =>
  db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(accountUsers)
    .innerJoin(users, eq(users.id, accountUsers.userId))
    .where(eq(accountUsers.accountId, accountId))
    .orderBy(asc(users.id));

export const accountTeams = (db: Db, accountId: number) =>
  db
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(eq(teams.accountId, accountId))
    .orderBy(asc(teams.id));

export const accountInboxes = (db: Db, accountId: number) =>
  db
    .select({ id: inboxes.id, name: inboxes.name })
    .from(inboxes)
    .where(eq(inboxes.accountId, accountId))
    .orderBy(asc(inboxes.id));

export const accountLabels = (db: Db, accountId: number) =>
  db
    .select({ id: labels.id, name: labels.title })
    .from(labels)
    .where(eq(labels.accountId, accountId))
    .orderBy(asc(labels.id));

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
