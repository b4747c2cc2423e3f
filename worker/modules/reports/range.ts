/** A half-open range of Unix seconds, [from, to). */
export type Span = { from: number; to: number };

/**
 * Where a report range is read from: UTC months from month rollups, UTC days from day rollups,
 * raw reporting events only for parts of days. A partial unit at an edge is read either as its
 * covered part (`days`, `raw`) or as the whole unit less its uncovered part (`daysLess`,
 * `rawLess`), whichever reads less: a year from 01:00 reads twelve month rows per key and one
 * hour of raw events, not 23 hours of events and a month of day rows. `null` (all time) reads
 * every month rollup.
 */
export type Plan = {
  months: Span[];
  days: Span[];
  daysLess: Span[];
  raw: Span[];
  rawLess: Span[];
};

export const DAY = 86_400;
const ALL_TIME: Span = { from: -(2 ** 40), to: 2 ** 40 };

const dayStart = (t: number) => Math.floor(t / DAY) * DAY;
const monthStart = (t: number) => {
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
};
const nextMonth = (t: number) => {
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
};

const nonEmpty = (spans: Span[]) => spans.filter((s) => s.to > s.from);

type Cover = { coarse: Span | null; fine: Span[]; fineLess: Span[] };

/**
 * [a, b) as coarse units (aligned by `start`/`next`) plus or minus fine spans at its two edges,
 * each edge taking the cheaper of "the covered part" and "the whole unit less the rest".
 */
function cover(
  a: number,
  b: number,
  start: (t: number) => number,
  next: (t: number) => number,
): Cover {
  const up = (t: number) => (start(t) === t ? t : next(t));
  const A = start(a);
  const B = up(b);
  if (up(a) > start(b) || (up(a) === B && start(b) === A)) {
    // Inside one unit: the part itself, or the unit less both sides.
    if (b - a <= a - A + (B - b)) {
      return { coarse: null, fine: nonEmpty([{ from: a, to: b }]), fineLess: [] };
    }
    return {
      coarse: { from: A, to: B },
      fine: [],
      fineLess: nonEmpty([
        { from: A, to: a },
        { from: b, to: B },
      ]),
    };
  }
  const fine: Span[] = [];
  const fineLess: Span[] = [];
  let from = up(a);
  if (a !== from && from - a > a - A) {
    from = A;
    fineLess.push({ from: A, to: a });
  } else if (a !== from) {
    fine.push({ from: a, to: from });
  }
  let to = start(b);
  if (b !== to && B - b < b - to) {
    to = B;
    fineLess.push({ from: b, to: B });
  } else if (b !== to) {
    fine.push({ from: to, to: b });
  }
  return { coarse: to > from ? { from, to } : null, fine, fineLess };
}

export function planRange(range: Span | null): Plan {
  if (range === null) {
    return { months: [ALL_TIME], days: [], daysLess: [], raw: [], rawLess: [] };
  }
  const byDay = cover(range.from, range.to, dayStart, (t) => dayStart(t) + DAY);
  const plan: Plan = {
    months: [],
    days: [],
    daysLess: [],
    raw: byDay.fine,
    rawLess: byDay.fineLess,
  };
  if (byDay.coarse) {
    const byMonth = cover(byDay.coarse.from, byDay.coarse.to, monthStart, nextMonth);
    plan.months = byMonth.coarse ? [byMonth.coarse] : [];
    plan.days = byMonth.fine;
    plan.daysLess = byMonth.fineLess;
  }
  return plan;
}

/** A time series' split: whole UTC days (day rollups, one row per day) and raw partial days. */
export function splitDays(range: Span): { days: Span[]; raw: Span[] } {
  const d0 = Math.ceil(range.from / DAY) * DAY;
  const d1 = dayStart(range.to);
  if (d0 >= d1) {
    return { days: [], raw: nonEmpty([range]) };
  }
  return {
    days: [{ from: d0, to: d1 }],
    raw: nonEmpty([
      { from: range.from, to: d0 },
      { from: d1, to: range.to },
    ]),
  };
}

export type GroupBy = "day" | "week" | "month" | "year";

/**
 * The starts of the buckets covering [from, to), aligned in local time at `offset` seconds east
 * of UTC (Chatwoot's timezone_offset): days at local midnight, weeks on Monday, months and
 * years on the 1st. At most `max` + 1 starts are made (a larger range is refused anyway).
 */
export function bucketStarts(
  range: Span,
  groupBy: GroupBy,
  offset: number,
  max = Number.POSITIVE_INFINITY,
): number[] {
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
    // Past `max` buckets the caller refuses the range: stop counting there.
    if (!(start < range.to) || starts.length > max) {
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
