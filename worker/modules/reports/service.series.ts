import type { Db } from "../../db/client";
import type { RollupDimension } from "../../db/schema";
import { invalidField } from "../../lib/errors";
import {
  accountMembers,
  type DaySums,
  liveCounts,
  localDays,
  MAX_UNION,
  type Totals,
} from "./queries";
import { type CsatDimension, type CsatTotals, csatTotals } from "./queries.csat";
import { bucketOf, bucketStarts, type GroupBy, planRange, type Span, seriesPieces } from "./range";
import type { Metric } from "./schema";
import {
  aggregateOf,
  aggregateReads,
  averageOf,
  countOf,
  rangeOf,
  satisfactionOf,
} from "./service";

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
 * `reports?metric=…`: one value per bucket of [since, until) in local time at the offset, read
 * as sums per local day (range.ts: seriesPieces) and added into the buckets holding those days.
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
  const pieces = seriesPieces(range, offset);
  const reads = [];
  for (let i = 0; i < pieces.length; i += MAX_UNION) {
    const chunk = pieces.slice(i, i + MAX_UNION);
    reads.push(localDays(db, accountId, dimension, id, fact, offset, chunk));
  }
  // Every piece in one D1 batch (one round trip), one row per local day back.
  const answers = reads.length > 0 ? ((await db.batch(reads as never)) as DaySums[][]) : [];
  for (const row of answers.flat()) {
    add(Number(row.day), {
      count: Number(row.count),
      sum: Number(row.sum ?? 0),
      sumBh: Number(row.sumBh ?? 0),
    });
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
  const totals = (a: ReturnType<typeof aggregateOf>) =>
    Object.fromEntries(
      Object.entries(METRIC_FACTS).map(([metric, { fact, average }]) => [
        metric,
        average ? (averageOf(a, id, fact, bh) ?? 0) : countOf(a, id, fact),
      ]),
    ) as Record<Metric, number>;
  const length = range.to - range.from;
  const reads = (span: Span) =>
    aggregateReads(db, accountId, dimension, facts, planRange(span), id);
  const current = reads(range);
  const earlier = { from: range.from - length, to: range.from };
  const before = reads(earlier);
  // Both ranges and their survey answers in one D1 batch.
  const [csatNow, csatBefore, ...answers] = (await db.batch([
    csatTotals(db, accountId, dimension as CsatDimension, range, id),
    csatTotals(db, accountId, dimension as CsatDimension, earlier, id),
    ...current,
    ...before,
  ] as never)) as [CsatTotals[], CsatTotals[], ...Totals[][]];
  return {
    ...totals(aggregateOf(answers.slice(0, current.length))),
    ...satisfactionOf(csatNow, id),
    previous: {
      ...totals(aggregateOf(answers.slice(current.length))),
      ...satisfactionOf(csatBefore, id),
    },
  };
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
