import { describe, expect, it } from "vitest";
import type { InboxRow, WorkingHour } from "../../worker/db/schema";
import { localDay, openAt } from "../../worker/modules/templates/listener";

/** Monday to Friday 09:00–17:00, weekends closed. */
const officeHours: WorkingHour[] = Array.from({ length: 7 }, (_, d) => ({
  day_of_week: d,
  closed_all_day: d === 0 || d === 6,
  open_all_day: false,
  open_hour: 9,
  open_minutes: 0,
  close_hour: 17,
  close_minutes: 0,
}));

const inbox = (timezone: string) => ({ timezone, workingHours: officeHours }) as InboxRow;
const at = (iso: string) => Date.parse(iso) / 1000;

describe("out-of-office hours in the inbox's timezone", () => {
  it("opens and closes on the local wall clock, across a DST change", () => {
    const ny = inbox("America/New_York");
    // Friday 2026-03-06 (EST, UTC-5): 16:59 open, 17:00 closed.
    expect(openAt(ny, at("2026-03-06T21:59:00Z"))).toBe(true);
    expect(openAt(ny, at("2026-03-06T22:00:00Z"))).toBe(false);
    // Sunday 2026-03-08 the clocks go forward: closed all day.
    expect(openAt(ny, at("2026-03-08T15:00:00Z"))).toBe(false);
    // Monday 2026-03-09 (EDT, UTC-4): 08:59 closed, 09:00 open (13:00 UTC, no longer 14:00).
    expect(openAt(ny, at("2026-03-09T12:59:00Z"))).toBe(false);
    expect(openAt(ny, at("2026-03-09T13:00:00Z"))).toBe(true);
  });

  it("a day is the inbox's local day: across its midnight, not UTC's", () => {
    const tokyo = inbox("Asia/Tokyo");
    // 14:59 UTC is 23:59 in Tokyo on Monday; 15:00 UTC is Tuesday 00:00 there.
    expect(localDay(tokyo, at("2026-03-09T14:59:00Z"))).toEqual({
      start: at("2026-03-08T15:00:00Z"),
      date: "2026-03-09",
    });
    expect(localDay(tokyo, at("2026-03-09T15:00:00Z")).date).toBe("2026-03-10");
    // Monday 09:00 Tokyo = 00:00 UTC.
    expect(openAt(tokyo, at("2026-03-09T00:00:00Z"))).toBe(true);
    expect(openAt(tokyo, at("2026-03-08T23:59:00Z"))).toBe(false);
  });
});
