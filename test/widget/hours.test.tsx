import { describe, expect, it } from "vitest";
import { isWithinWorkingHours } from "../../widget/src/app/lib/hours";

const day = (day_of_week: number, open: [number, number] | "all" | "closed") => ({
  day_of_week,
  closed_all_day: open === "closed",
  open_all_day: open === "all",
  open_hour: Array.isArray(open) ? open[0] : null,
  open_minutes: 0,
  close_hour: Array.isArray(open) ? open[1] : null,
  close_minutes: 0,
});

// Monday 2026-11-23 at 08:30 UTC.
const monday0830 = new Date(Date.UTC(2026, 10, 23, 8, 30));

describe("working hours", () => {
  it("is always open when working hours are off", () => {
    expect(
      isWithinWorkingHours({ working_hours_enabled: false, working_hours: [], timezone: "UTC" }),
    ).toBe(true);
  });

  it("compares the time in the inbox's time zone", () => {
    const hours = { working_hours_enabled: true, working_hours: [day(1, [9, 17])] };
    expect(isWithinWorkingHours({ ...hours, timezone: "UTC" }, monday0830)).toBe(false);
    // 09:30 in Paris (UTC+1 in November).
    expect(isWithinWorkingHours({ ...hours, timezone: "Europe/Paris" }, monday0830)).toBe(true);
  });

  it("honours closed and open-all-day days, and unlisted days are closed", () => {
    const at = (working_hours: ReturnType<typeof day>[]) =>
      isWithinWorkingHours(
        { working_hours_enabled: true, working_hours, timezone: "UTC" },
        monday0830,
      );
    expect(at([day(1, "all")])).toBe(true);
    expect(at([day(1, "closed")])).toBe(false);
    expect(at([day(2, "all")])).toBe(false);
  });
});
