import { eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { inboxes, reportingCalendars, reportingHours } from "../../db/schema";
import { inSlices } from "../../lib/bind-limit";
import type { OpenInterval } from "./hours";

/**
 * The inboxes' working-hours settings beside the calendar last built for them (in slices: a log
 * writer's transaction can carry messages of more inboxes than D1 binds values in a statement).
 */
export async function calendarStates(db: Db, inboxIds: number[]) {
  const parts = await Promise.all(
    inSlices(inboxIds).map((part) =>
      db
        .select({
          id: inboxes.id,
          enabled: inboxes.workingHoursEnabled,
          timezone: inboxes.timezone,
          hours: inboxes.workingHours,
          signature: reportingCalendars.signature,
          from: reportingCalendars.from,
          to: reportingCalendars.to,
        })
        .from(inboxes)
        .leftJoin(reportingCalendars, eq(reportingCalendars.inboxId, inboxes.id))
        .where(inArray(inboxes.id, part))
        .all(),
    ),
  );
  return parts.flat();
}

/** Replaces an inbox's calendar: one JSON parameter carries every interval (D1's bind limit). */
export function replaceCalendar(
  db: Db,
  inboxId: number,
  calendar: { signature: string; from: number; to: number },
  intervals: OpenInterval[],
): BatchItem<"sqlite">[] {
  const rows = JSON.stringify(intervals.map((i) => [i.start, i.end, i.before]));
  return [
    db.delete(reportingHours).where(eq(reportingHours.inboxId, inboxId)),
    db
      .insert(reportingHours)
      .select(
        sql`SELECT ${inboxId}, j.value ->> 0, j.value ->> 1, j.value ->> 2 FROM json_each(${rows}) j`,
      ),
    db
      .insert(reportingCalendars)
      .values({ inboxId, ...calendar })
      .onConflictDoUpdate({ target: reportingCalendars.inboxId, set: calendar }),
  ];
}

/**
 * Business seconds of an inbox from its calendar's start up to `t` (SQL, for use inside a
 * batch): the interval starting at or before `t` (primary-key lookup), clamped to `t`.
 */
export const businessClock = (inbox: unknown, t: unknown) =>
  sql`COALESCE((SELECT h."before" + MIN(MAX(${t} - h.start, 0), h."end" - h.start)
    FROM ${reportingHours} h WHERE h.inbox_id = ${inbox} AND h.start <= ${t}
    ORDER BY h.start DESC LIMIT 1), 0)`;
