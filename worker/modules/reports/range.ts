/** A half-open range of Unix seconds, [from, to). */
export type Span = { from: number; to: number };

/**
 * Where a report range is read from: whole UTC months from month rollups, whole UTC days from
 * day rollups, and only the partial days at the edges from raw reporting events. `null`
 * bounds (all time) read every month rollup.
 */
export type Plan = { months: Span[]; days: Span[]; raw: Span[] };

export const DAY = 86_400;
const ALL_TIME: Span = { from: -(2 ** 40), to: 2 ** 40 };

const monthStart = (t: number) => {
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
};
const nextMonth = (t: number) => {
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
};

const nonEmpty = (spans: Span[]) => spans.filter((s) => s.to > s.from);

export function planRange(range: Span | null): Plan {
  if (range === null) {
    return { months: [ALL_TIME], days: [], raw: [] };
  }
  const d0 = Math.ceil(range.from / DAY) * DAY;
  const d1 = Math.floor(range.to / DAY) * DAY;
  if (d0 >= d1) {
    return { months: [], days: [], raw: nonEmpty([range]) };
  }
  const raw = nonEmpty([
    { from: range.from, to: d0 },
    { from: d1, to: range.to },
  ]);
  const m0 = monthStart(d0) === d0 ? d0 : nextMonth(d0);
  const m1 = monthStart(d1);
  if (m0 >= m1) {
    return { months: [], days: [{ from: d0, to: d1 }], raw };
  }
  return {
    months: [{ from: m0, to: m1 }],
    days: nonEmpty([
      { from: d0, to: m0 },
      { from: m1, to: d1 },
    ]),
    raw,
  };
}

export type GroupBy = "day" | "week" | "month" | "year";

/**
 * The starts of the buckets covering [from, to), aligned in local time at `offset` seconds east
 * of UTC (Chatwoot's timezone_offset): days at local midnight, weeks on Monday (Chatwoot's
 * groupdate default week start is Sunday; see docs/reports.md), months and years on the 1st.
 */
export function bucketStarts(range: Span, groupBy: GroupBy, offset: number): number[] {
  const local = (t: number) => new Date((t + offset) * 1000);
  const first = local(range.from);
  let y = first.getUTCFullYear();
  let m = groupBy === "year" ? 0 : first.getUTCMonth();
  let d = groupBy === "month" || groupBy === "year" ? 1 : first.getUTCDate();
  if (groupBy === "week") {
    d -= (first.getUTCDay() + 6) % 7;
  }
  const starts: number[] = [];
  for (;;) {
    const start = Date.UTC(y, m, d) / 1000 - offset;
    if (start >= range.to) {
      return starts;
    }
    starts.push(start);
    if (groupBy === "day" || groupBy === "week") {
      d += groupBy === "day" ? 1 : 7;
    } else if (groupBy === "month") {
      m += 1;
    } else {
      y += 1;
    }
  }
}

/** The bucket of `t` among sorted `starts` (binary search), or -1 before the first. */
export function bucketOf(starts: number[], t: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((starts[mid] as number) <= t) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}
