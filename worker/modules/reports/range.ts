/** A half-open range of Unix seconds, [from, to). */
export type Span = { from: number; to: number };

/** Where sums are read from: raw reporting events, or rollups of one grain. */
export type Source = "raw" | "hour" | "day" | "month" | "year";
export type Grain = Exclude<Source, "raw">;

/**
 * Where a report range is read from, as signed reads: UTC years, months, days and hours from
 * rollups, raw reporting events only for parts of hours. A partial unit at an edge is read either
 * as its covered part (+) or as the whole unit less its uncovered part (−), whichever reads less:
 * 2024 from 00:40 on Jan 1 to 23:20 on Dec 31 reads the year row per key, less an hour row and
 * less 40 minutes of raw events at each end. `null` (all time) reads every year rollup.
 */
export type Plan = { source: Source; span: Span; sign: 1 | -1 }[];

export const DAY = 86_400;
export const HOUR = 3600;
const ALL_TIME: Span = { from: -(2 ** 40), to: 2 ** 40 };

const hourStart = (t: number) => Math.floor(t / HOUR) * HOUR;
const dayStart = (t: number) => Math.floor(t / DAY) * DAY;
const monthStart = (t: number) => {
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
};
const nextMonth = (t: number) => {
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
};
const yearStart = (t: number) => Date.UTC(new Date(t * 1000).getUTCFullYear(), 0, 1) / 1000;
const nextYear = (t: number) => Date.UTC(new Date(t * 1000).getUTCFullYear() + 1, 0, 1) / 1000;

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

/** Each level: its unit (aligned start, next start) and the source below it. */
const LEVELS: {
  unit: Grain;
  below: Source;
  start: (t: number) => number;
  next: (t: number) => number;
}[] = [
  { unit: "hour", below: "raw", start: hourStart, next: (t) => hourStart(t) + HOUR },
  { unit: "day", below: "hour", start: dayStart, next: (t) => dayStart(t) + DAY },
  { unit: "month", below: "day", start: monthStart, next: nextMonth },
  { unit: "year", below: "month", start: yearStart, next: nextYear },
];

export function planRange(range: Span | null): Plan {
  if (range === null) {
    return [{ source: "year", span: ALL_TIME, sign: 1 }];
  }
  const plan: Plan = [];
  let rest: Span | null = range;
  for (const level of LEVELS) {
    if (rest === null) {
      break;
    }
    const c = cover(rest.from, rest.to, level.start, level.next);
    plan.push(...c.fine.map((span) => ({ source: level.below, span, sign: 1 as const })));
    plan.push(...c.fineLess.map((span) => ({ source: level.below, span, sign: -1 as const })));
    rest = c.coarse;
  }
  if (rest !== null) {
    plan.push({ source: "year", span: rest, sign: 1 });
  }
  return plan;
}

/**
 * What a time series reads, every piece grouped by local day in SQL: rollup rows of a grain
 * (`wholeHoursOnly`: without the hours a local midnight splits), raw events of a span, or raw
 * events of the split hours (one hour every `every` seconds from `span.from`).
 */
export type SeriesPiece =
  | { source: Grain; span: Span; wholeHoursOnly?: boolean }
  | { source: "raw"; span: Span }
  | { source: "split"; span: Span; every: number };

/**
 * A series range at `offset` seconds east of UTC: day rows for whole UTC days when local days
 * are UTC days; hour rows otherwise (a local day at a whole-hour offset is whole UTC hours); at
 * a fractional offset (+5:30) the one hour a day that local midnight splits is read raw; raw
 * events only for the minutes at the range's two edges. Hour rows are bounded (8,760 a year)
 * and come back as one row per local day, so the read does not grow with the events.
 */
export function seriesPieces(range: Span, offset: number): SeriesPiece[] {
  const h0 = Math.ceil(range.from / HOUR) * HOUR;
  const h1 = Math.floor(range.to / HOUR) * HOUR;
  if (h0 >= h1) {
    return nonEmpty([range]).map((span) => ({ source: "raw" as const, span }));
  }
  const pieces: SeriesPiece[] = nonEmpty([
    { from: range.from, to: h0 },
    { from: h1, to: range.to },
  ]).map((span) => ({ source: "raw" as const, span }));
  if (offset % DAY === 0) {
    const d0 = Math.ceil(h0 / DAY) * DAY;
    const d1 = Math.floor(h1 / DAY) * DAY;
    if (d0 >= d1) {
      return [...pieces, { source: "hour", span: { from: h0, to: h1 } }];
    }
    const hours = nonEmpty([
      { from: h0, to: d0 },
      { from: d1, to: h1 },
    ]).map((span) => ({ source: "hour" as const, span }));
    return [...pieces, { source: "day", span: { from: d0, to: d1 } }, ...hours];
  }
  if (offset % HOUR === 0) {
    return [...pieces, { source: "hour", span: { from: h0, to: h1 } }];
  }
  pieces.push({ source: "hour", span: { from: h0, to: h1 }, wholeHoursOnly: true });
  // The UTC hour holding local midnight, at the same time of every UTC day.
  const midnight = (((-offset % DAY) + DAY) % DAY) as number;
  let first = Math.floor(h0 / DAY) * DAY + Math.floor(midnight / HOUR) * HOUR;
  if (first < h0) {
    first += DAY;
  }
  if (first + HOUR <= h1) {
    pieces.push({ source: "split", span: { from: first, to: h1 - HOUR + 1 }, every: DAY });
  }
  return pieces;
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
