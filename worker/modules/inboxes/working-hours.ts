// An inbox's working hours as Chatwoot stores them: one row per day of the week.
import type { WorkingHour } from "../../db/schema";
import type { WorkingHourInput } from "./schema";

const closedDay = (day: number): WorkingHour => ({
  day_of_week: day,
  closed_all_day: true,
  open_all_day: false,
  open_hour: null,
  open_minutes: null,
  close_hour: null,
  close_minutes: null,
});

/** Chatwoot's defaults (OutOfOffisable): weekdays 09:00-17:00, weekends closed. */
export const DEFAULT_WORKING_HOURS: WorkingHour[] = [0, 1, 2, 3, 4, 5, 6].map((day) =>
  day === 0 || day === 6
    ? closedDay(day)
    : {
        ...closedDay(day),
        closed_all_day: false,
        open_hour: 9,
        open_minutes: 0,
        close_hour: 17,
        close_minutes: 0,
      },
);

function workingHour(input: WorkingHourInput): WorkingHour {
  if (input.closed_all_day) {
    return closedDay(input.day_of_week);
  }
  if (input.open_all_day) {
    const hours = { open_hour: 0, open_minutes: 0, close_hour: 23, close_minutes: 59 };
    return { ...closedDay(input.day_of_week), ...hours, closed_all_day: false, open_all_day: true };
  }
  return {
    day_of_week: input.day_of_week,
    closed_all_day: false,
    open_all_day: false,
    open_hour: input.open_hour ?? null,
    open_minutes: input.open_minutes ?? null,
    close_hour: input.close_hour ?? null,
    close_minutes: input.close_minutes ?? null,
  };
}

/** Chatwoot updates the listed days only; the others keep their hours. */
export function mergeWorkingHours(
  current: WorkingHour[],
  input: WorkingHourInput[],
): WorkingHour[] {
  const byDay = new Map(current.map((h) => [h.day_of_week, h]));
  for (const item of input) {
    byDay.set(item.day_of_week, workingHour(item));
  }
  return [...byDay.values()].sort((a, b) => a.day_of_week - b.day_of_week);
}
