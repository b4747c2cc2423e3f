import { describe, expect, it } from "vitest";
import type { WorkingHour } from "../../worker/db/schema";
import {
  businessSeconds,
  type HoursSettings,
  openIntervals,
  zonedToUtc,
} from "../../worker/modules/reports/hours";
import { bucketStarts, planRange } from "../../worker/modules/reports/range";

const at = (iso: string) => Date.parse(iso) / 1000;
const H = 3600;

const day = (d: number, over: Partial<WorkingHour> = {}): WorkingHour => ({
  day_of_week: d,
  closed_all_day: false,
  open_all_day: false,
  open_hour: 9,
  open_minutes: 0,
  close_hour: 17,
  close_minutes: 0,
  ...over,
});

/** Mon–Fri 09:00–17:00, Saturday open all day, Sunday closed. */
const week = [
  day(0, { closed_all_day: true }),
  day(1),
  day(2),
  day(3),
  day(4),
  day(5),
  day(6, { open_all_day: true }),
];

const settings = (timezone: string, enabled = true): HoursSettings => ({
  enabled,
  timezone,
  hours: week,
});

const seconds = (s: HoursSettings, a: string, b: string) =>
  businessSeconds(openIntervals(s, at(a) - 7 * 86400, at(b) + 7 * 86400), at(a), at(b));

describe("business hours from Intl time-zone data", () => {
  it("converts a wall time to UTC on both sides of a DST change", () => {
    // New York: EST (UTC-5) until 2025-03-09 02:00, then EDT (UTC-4).
    expect(zonedToUtc("America/New_York", at("2025-03-07T09:00:00Z"))).toBe(
      at("2025-03-07T14:00:00Z"),
    );
    expect(zonedToUtc("America/New_York", at("2025-03-10T09:00:00Z"))).toBe(
      at("2025-03-10T13:00:00Z"),
    );
    // Berlin: CET (UTC+1) until 2025-03-30, then CEST (UTC+2).
    expect(zonedToUtc("Europe/Berlin", at("2025-03-31T09:00:00Z"))).toBe(
      at("2025-03-31T07:00:00Z"),
    );
  });

  it("counts a weekday's hours only", () => {
    // Tue 08:00 to 18:00 New York (EST): 09:00–17:00 = 8 h.
    expect(
      seconds(settings("America/New_York"), "2025-03-04T13:00:00Z", "2025-03-04T23:00:00Z"),
    ).toBe(8 * H);
  });

  it("counts an open-all-day Saturday in full and a closed Sunday not at all, across DST", () => {
    // Fri 2025-03-07 16:00 EST → Mon 2025-03-10 10:00 EDT:
    // Fri 1 h + Sat 24 h (00:00–24:00 EST) + Sun 0 + Mon 09:00–10:00 EDT 1 h = 26 h.
    expect(
      seconds(settings("America/New_York"), "2025-03-07T21:00:00Z", "2025-03-10T14:00:00Z"),
    ).toBe(26 * H);
  });

  it("is 0 with working hours disabled (Chatwoot's rule)", () => {
    expect(seconds(settings("UTC", false), "2025-03-04T00:00:00Z", "2025-03-11T00:00:00Z")).toBe(0);
  });

  it("reads an unknown zone as UTC", () => {
    expect(seconds(settings("Mars/Olympus"), "2025-03-04T08:00:00Z", "2025-03-04T10:00:00Z")).toBe(
      H,
    );
  });

  it("keeps the intervals' running totals (what SQL reads)", () => {
    const list = openIntervals(
      settings("UTC"),
      at("2025-03-03T00:00:00Z"),
      at("2025-03-06T00:00:00Z"),
    );
    expect(list.map((i) => i.before)).toEqual([0, 8 * H, 16 * H]);
  });
});

describe("report ranges", () => {
  const read = (source: string, from: string, to: string, sign = 1) => ({
    source,
    span: { from: at(from), to: at(to) },
    sign,
  });

  it("reads whole months, days and hours from rollups", () => {
    expect(planRange({ from: at("2025-02-14T12:00:00Z"), to: at("2025-04-02T06:00:00Z") })).toEqual(
      [
        read("hour", "2025-02-14T12:00:00Z", "2025-02-15T00:00:00Z"),
        read("hour", "2025-04-02T00:00:00Z", "2025-04-02T06:00:00Z"),
        read("day", "2025-02-15T00:00:00Z", "2025-03-01T00:00:00Z"),
        read("day", "2025-04-01T00:00:00Z", "2025-04-02T00:00:00Z"),
        read("month", "2025-03-01T00:00:00Z", "2025-04-01T00:00:00Z"),
      ],
    );
  });

  it("reads raw events only inside an hour", () => {
    expect(planRange({ from: at("2025-02-14T00:40:00Z"), to: at("2025-02-14T05:00:00Z") })).toEqual(
      [
        read("raw", "2025-02-14T00:40:00Z", "2025-02-14T01:00:00Z"),
        read("hour", "2025-02-14T01:00:00Z", "2025-02-14T05:00:00Z"),
      ],
    );
  });

  it("reads a nearly whole unit as the unit less the rest", () => {
    // A leap year from 01:00 to 23:00 the day before its end: the year, less one day and two
    // hours.
    expect(planRange({ from: at("2024-01-01T01:00:00Z"), to: at("2024-12-30T23:00:00Z") })).toEqual(
      [
        read("hour", "2024-01-01T00:00:00Z", "2024-01-01T01:00:00Z", -1),
        read("hour", "2024-12-30T23:00:00Z", "2024-12-31T00:00:00Z", -1),
        read("day", "2024-12-31T00:00:00Z", "2025-01-01T00:00:00Z", -1),
        read("year", "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z"),
      ],
    );
  });

  it("reads whole years from year rows and the months around them", () => {
    expect(planRange({ from: at("2023-12-01T00:00:00Z"), to: at("2025-02-01T00:00:00Z") })).toEqual(
      [
        read("month", "2023-12-01T00:00:00Z", "2024-01-01T00:00:00Z"),
        read("month", "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z"),
        read("year", "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z"),
      ],
    );
  });

  it("aligns buckets to local midnight, Monday and the 1st", () => {
    const range = { from: at("2025-03-05T12:00:00Z"), to: at("2025-03-20T00:00:00Z") };
    expect(bucketStarts(range, "day", -5 * H)[0]).toBe(at("2025-03-05T05:00:00Z"));
    expect(bucketStarts(range, "week", 0)).toEqual([
      at("2025-03-03T00:00:00Z"),
      at("2025-03-10T00:00:00Z"),
      at("2025-03-17T00:00:00Z"),
    ]);
    expect(bucketStarts(range, "month", 0)).toEqual([at("2025-03-01T00:00:00Z")]);
  });
});
