import type { Db } from "../../db/client";
import { type HoursSettings, hoursSignature, openIntervals } from "./hours";
import { calendarStates, replaceCalendar } from "./queries.calendar";

const DAY = 86_400;
/** How far back a calendar reaches: business values of older waits count from here. */
export const CALENDAR_PAST = 2 * 366 * DAY;
const CALENDAR_AHEAD = 60 * DAY;
/** Rebuilt before it runs out. */
const MARGIN = 7 * DAY;
/** An inbox checked this recently (this isolate) is not read again: working-hours edits apply
 * to new reporting events within this time. */
const FRESH_MS = 30_000;

const checkedAt = new Map<number, number>();

/**
 * Makes sure each inbox's business-hours calendar (reporting_hours) matches its working hours
 * and covers `from` up to `now` plus a margin, rebuilding it when not. Runs before the batch
 * whose reporting events compute business seconds from it.
 */
export async function ensureCalendars(
  db: Db,
  inboxIds: number[],
  now: number,
  opts: { from?: number; force?: boolean } = {},
): Promise<void> {
  const wallNow = Date.now();
  const due = [...new Set(inboxIds)].filter(
    (id) => opts.force || (checkedAt.get(id) ?? 0) < wallNow - FRESH_MS,
  );
  if (due.length === 0) {
    return;
  }
  const from = opts.from ?? now - CALENDAR_PAST;
  const statements = [];
  for (const row of await calendarStates(db, due)) {
    const settings: HoursSettings = {
      enabled: row.enabled,
      timezone: row.timezone,
      hours: row.hours,
    };
    const signature = hoursSignature(settings);
    const current =
      row.signature === signature &&
      row.from !== null &&
      row.from <= from &&
      row.to !== null &&
      row.to >= now + MARGIN;
    if (current && !opts.force) {
      continue;
    }
    const span = { from: Math.min(from, row.from ?? from), to: now + CALENDAR_AHEAD };
    const start = Math.floor(span.from / DAY) * DAY;
    const intervals = openIntervals(settings, start, span.to);
    statements.push(
      ...replaceCalendar(db, row.id, { signature, from: start, to: span.to }, intervals),
    );
  }
  if (statements.length > 0) {
    await db.batch(statements as never);
  }
  for (const id of due) {
    checkedAt.set(id, wallNow);
  }
}

/** Tests and the rebuild: forget what this isolate checked. */
export const forgetCalendarChecks = () => checkedAt.clear();
