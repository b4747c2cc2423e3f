import type { Db } from "../../db/client";
import type { RollupDimension } from "../../db/schema";
import { invalidField } from "../../lib/errors";
import { accountMembers, liveCounts, periodSeries, rawEvents } from "./queries";
import {
  bucketOf,
  bucketStarts,
  DAY,
  type Grain,
  type GroupBy,
  HOUR,
  planRange,
  type Span,
  splitUnits,
} from "./range";
import type { Metric } from "./schema";
import { aggregate, averageOf, countOf, rangeOf } from "./service";

/** Each metric: the reporting fact it reads, and whether it is a count or an average. */
export const METRIC_FACTS: Record<Metric, { fact: string; average: boolean }> = {
  conversations_count: { fact: "conversation_created", average: false },
  incoming_messages_count: { fact: "message_incoming", average: false },
  outgoing_messages_count: { fact: "message_outgoing", average: false },
  avg_first_response_time: { fact: "first_response", average: true },
  avg_resolution_time: { fact: "conversation_resolved", average: true },
  reply_time: { fact: "reply_time", average: true },
  resolutions_count: { fact: "conversation_resolved", average: false },
  bot_resolutions_count: { fact: "conversation_bot_resolved", average: false },
  bot_handoffs_count: { fact: "conversation_bot_handoff", average: false },
};

const DIMENSIONS = {
  account: "account",
  agent: "user",
  team: "team",
  inbox: "inbox",
  label: "label",
} as const satisfies Record<string, RollupDimension>;
export type ReportType = keyof typeof DIMENSIONS;

/** A time series answers at most this many buckets (a year and a day of days). */
export const MAX_BUCKETS = 366;

export type Subject = { type: ReportType; id?: number };

function subjectOf(s: Subject): { dimension: RollupDimension; id: number } {
  if (s.type === "account") {
    return { dimension: "account", id: 0 };
  }
  if (s.id === undefined) {
    throw invalidField("id", "is required unless type is account");
  }
  return { dimension: DIMENSIONS[s.type], id: s.id };
}

type Sums = { count: number; sum: number; sumBh: number };

/**
 * `reports?metric=…`: one value per bucket of [since, until) in local time at the offset.
 * Whole UTC days (no offset) or hours (a whole-hour offset) come from rollups, only the edges
 * from raw events.
 */
export async function timeSeries(
  db: Db,
  accountId: number,
  q: Subject & {
    metric: Metric;
    since?: number;
    until?: number;
    group_by: GroupBy;
    timezone_offset?: number;
    business_hours?: boolean;
  },
) {
  const range = rangeOf(q);
  if (range === null) {
    throw invalidField(q.since === undefined ? "since" : "until", "is required");
  }
  const offset = Math.round((q.timezone_offset ?? 0) * 3600);
  const starts = bucketStarts(range, q.group_by, offset, MAX_BUCKETS);
  if (starts.length > MAX_BUCKETS) {
    throw invalidField("until", `range has more than ${MAX_BUCKETS} ${q.group_by} buckets`);
  }
  const { dimension, id } = subjectOf(q);
  const { fact, average } = METRIC_FACTS[q.metric];
  const buckets: Sums[] = starts.map(() => ({ count: 0, sum: 0, sumBh: 0 }));
  const add = (t: number, s: Sums) => {
    const b = buckets[bucketOf(starts, t)];
    if (b) {
      b.count += s.count;
      b.sum += s.sum;
      b.sumBh += s.sumBh;
    }
  };
  // Day rows when local days are UTC days; hour rows when the offset is whole hours; raw
  // events otherwise (offsets such as +5:30, +5:45).
  const grain: Grain | null = offset % DAY === 0 ? "day" : offset % HOUR === 0 ? "hour" : null;
  const split = grain
    ? splitUnits(range, grain === "day" ? DAY : HOUR)
    : { units: [], raw: [range] };
  const [rolled, raw] = await Promise.all([
    Promise.all(
      split.units.map((s) => periodSeries(db, accountId, dimension, id, grain ?? "day", fact, s)),
    ),
    Promise.all(split.raw.map((s) => rawEvents(db, accountId, dimension, id, fact, s))),
  ]);
  for (const row of rolled.flat()) {
    add(row.period, row);
  }
  for (const e of raw.flat()) {
    add(e.at, { count: 1, sum: Number(e.value), sumBh: Number(e.bh) });
  }
  const bh = q.business_hours ?? false;
  return starts.map((timestamp, i) => {
    const b = buckets[i] as Sums;
    const value = average ? (b.count === 0 ? 0 : (bh ? b.sumBh : b.sum) / b.count) : b.count;
    return { value, timestamp };
  });
}

/** `reports/summary`: the totals of the range and of the range of equal length before it. */
export async function reportTotals(
  db: Db,
  accountId: number,
  q: Subject & { since?: number; until?: number; business_hours?: boolean },
) {
  const range = rangeOf(q);
  if (range === null) {
    throw invalidField(q.since === undefined ? "since" : "until", "is required");
  }
  const { dimension, id } = subjectOf(q);
  const facts = [...new Set(Object.values(METRIC_FACTS).map((m) => m.fact))];
  const bh = q.business_hours ?? false;
  const totals = async (span: Span) => {
    const a = await aggregate(db, accountId, dimension, facts, planRange(span), id);
    return Object.fromEntries(
      Object.entries(METRIC_FACTS).map(([metric, { fact, average }]) => [
        metric,
        average ? (averageOf(a, id, fact, bh) ?? 0) : countOf(a, id, fact),
      ]),
    ) as Record<Metric, number>;
  };
  const length = range.to - range.from;
  const [current, previous] = await Promise.all([
    totals(range),
    totals({ from: range.from - length, to: range.from }),
  ]);
  return { ...current, previous };
}

/** `reports/conversations`: live counts now, for the account or per agent (every member). */
export async function liveConversations(db: Db, accountId: number, type: "account" | "agent") {
  const zero = { open: 0, unattended: 0, unassigned: 0, pending: 0 };
  if (type === "account") {
    const [row] = await liveCounts(db, accountId, false);
    const { assigneeId: _, ...counts } = row ?? { assigneeId: null, ...zero };
    return counts;
  }
  const [members, rows] = await Promise.all([
    accountMembers(db, accountId),
    liveCounts(db, accountId, true),
  ]);
  const byAssignee = new Map(rows.map((r) => [r.assigneeId, r]));
  return members.map((m) => {
    const r = byAssignee.get(m.id);
    return {
      id: m.id,
      name: m.name,
      email: m.email,
      metric: r
        ? { open: r.open, unattended: r.unattended, unassigned: 0, pending: r.pending }
        : zero,
    };
  });
}
