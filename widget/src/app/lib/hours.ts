import type { InboxSettings } from "../api/types";

type Hours = Pick<InboxSettings, "working_hours_enabled" | "working_hours" | "timezone">;
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** Whether the team is within its working hours now, in the inbox's time zone. */
export function isWithinWorkingHours(settings: Hours, now = new Date()): boolean {
  if (!settings.working_hours_enabled || settings.working_hours.length === 0) {
    return true;
  }
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-US", {
      timeZone: settings.timezone || "UTC",
      weekday: "short",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
    }).formatToParts(now);
  } catch {
    return true;
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = DAYS.indexOf(part("weekday"));
  const minute = (Number(part("hour")) % 24) * 60 + Number(part("minute"));
  const slot = settings.working_hours.find((h) => h.day_of_week === day);
  if (!slot || slot.closed_all_day) {
    return false;
  }
  if (slot.open_all_day) {
    return true;
  }
  const open = (slot.open_hour ?? 0) * 60 + (slot.open_minutes ?? 0);
  const close = (slot.close_hour ?? 24) * 60 + (slot.close_minutes ?? 0);
  return minute >= open && minute < close;
}
