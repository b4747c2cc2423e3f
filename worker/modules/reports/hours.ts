import type { WorkingHour } from "../../db/schema";

/** What an inbox's business hours are made of (the inbox row's own fields). */
export type HoursSettings = { enabled: boolean; timezone: string; hours: WorkingHour[] };

/** An open interval in UTC seconds, with the business seconds before it. */
export type OpenInterval = { start: number; end: number; before: number };

const DAY = 86_400;
const formats = new Map<string, Intl.DateTimeFormat>();

/** The platform's tz data (Intl), never a table of our own; an unknown zone reads as UTC. */
function formatFor(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    const options = {
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    } as const;
    try {
      f = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
    }
    formats.set(timeZone, f);
  }
  return f;
}

/** The wall clock of `zone` at UTC second `t`, as if it were UTC (seconds). */
export function wallClock(zone: string, t: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatFor(zone).formatToParts(new Date(t * 1000))) {
    parts[p.type] = Number(p.value);
  }
  const { year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  return Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
}

/**
 * The UTC second at which `zone`'s wall clock shows `wall` (seconds since 1970 on the wall).
 * Two passes settle DST: the offset at the first guess may differ from the offset at the
 * answer. A wall time skipped by a spring-forward lands on the instant after the gap.
 */
export function zonedToUtc(zone: string, wall: number): number {
  const guess = wall - (wallClock(zone, wall) - wall);
  const offset = wallClock(zone, guess) - guess;
  const answer = wall - offset;
  return wallClock(zone, answer) === wall ? answer : guess;
}

/** Minutes after local midnight that `h` opens and closes, or null when closed all day. */
function dayWindow(h: WorkingHour | undefined): [number, number] | null {
  if (!h || h.closed_all_day) {
    return null;
  }
  if (h.open_all_day) {
    return [0, 1440];
  }
  const open = (h.open_hour ?? 0) * 60 + (h.open_minutes ?? 0);
  let close = (h.close_hour ?? 0) * 60 + (h.close_minutes ?? 0);
  if (close === 0) {
    close = 1440; // closing at 00:00 means at the end of the day
  }
  return close > open ? [open, close] : null;
}

/**
 * The inbox's open intervals between `from` and `to` (UTC seconds), local day by local day in
 * its timezone, merged where one day runs into the next (open all day), each with the business
 * seconds before it. Working hours disabled: none (Chatwoot: business-hours values are 0).
 */
export function openIntervals(settings: HoursSettings, from: number, to: number): OpenInterval[] {
  if (!settings.enabled) {
    return [];
  }
  const zone = settings.timezone;
  const byDay = new Map(settings.hours.map((h) => [h.day_of_week, h]));
  const spans: [number, number][] = [];
  // Local midnights from the day before `from` (the zone may be behind UTC) up to `to`.
  let day = Math.floor(wallClock(zone, from) / DAY) * DAY - DAY;
  const lastDay = Math.floor(wallClock(zone, to) / DAY) * DAY + DAY;
  for (; day <= lastDay; day += DAY) {
    const window = dayWindow(byDay.get(new Date(day * 1000).getUTCDay()));
    if (!window) {
      continue;
    }
    const start = Math.max(zonedToUtc(zone, day + window[0] * 60), from);
    const end = Math.min(zonedToUtc(zone, day + window[1] * 60), to);
    if (end <= start) {
      continue;
    }
    const last = spans.at(-1);
    if (last && last[1] >= start) {
      last[1] = Math.max(last[1], end);
    } else {
      spans.push([start, end]);
    }
  }
  let before = 0;
  return spans.map(([start, end]) => {
    const interval = { start, end, before };
    before += end - start;
    return interval;
  });
}

/** Business seconds in [a, b) for intervals from `openIntervals` (the SQL lookup's twin). */
export function businessSeconds(intervals: OpenInterval[], a: number, b: number): number {
  let total = 0;
  for (const i of intervals) {
    total += Math.max(0, Math.min(b, i.end) - Math.max(a, i.start));
  }
  return total;
}

/** Changes when anything the intervals are built from changes. */
export const hoursSignature = (s: HoursSettings) =>
  JSON.stringify([s.enabled, s.timezone, s.enabled ? s.hours : []]);
