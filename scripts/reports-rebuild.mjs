// `npm run reports:rebuild [-- --remote] [-- --account N]`: recomputes reporting events (and,
// through the rollup trigger, the rollups) from the conversations and messages stored, so an
// existing database gets reports and a rollup bug can be repaired. docs/reports.md says what
// history a rebuild cannot know (reassignments, team changes, bot handoffs, earlier resolutions).
// Runs under Node's type stripping (package.json) to share worker/modules/reports/hours.ts.

import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { hoursSignature, openIntervals } from "../worker/modules/reports/hours.ts";
import { d1, q, wrangler } from "./lib/wrangler.mjs";
import { rebuildStatements } from "./reports-rebuild-sql.mjs";

const DAY = 86_400;
/** The calendars reach back this far before the oldest conversation (as the Worker's do). */
const CALENDAR_AHEAD = 60 * DAY;

/** Rebuilds every inbox's business-hours calendar from its working hours (Intl). */
function calendarStatements(remote, from, now) {
  const [inboxes] = d1(
    "SELECT id, working_hours_enabled AS enabled, working_hours AS hours, timezone FROM inboxes",
    { remote },
  );
  return inboxes.flatMap((row) => {
    const settings = {
      enabled: Boolean(row.enabled),
      timezone: row.timezone,
      hours: JSON.parse(row.hours || "[]"),
    };
    const start = Math.floor(from / DAY) * DAY;
    const to = now + CALENDAR_AHEAD;
    const rows = openIntervals(settings, start, to).map((i) => [i.start, i.end, i.before]);
    return [
      `DELETE FROM reporting_hours WHERE inbox_id = ${row.id}`,
      `INSERT INTO reporting_hours (inbox_id, start, "end", "before")
        SELECT ${row.id}, j.value ->> 0, j.value ->> 1, j.value ->> 2 FROM json_each(${q(JSON.stringify(rows))}) j`,
      `INSERT INTO reporting_calendars (inbox_id, signature, "from", "to")
        VALUES (${row.id}, ${q(hoursSignature(settings))}, ${start}, ${to})
        ON CONFLICT (inbox_id) DO UPDATE SET signature = excluded.signature, "from" = excluded."from", "to" = excluded."to"`,
    ];
  });
}

export function rebuildReports({ remote = false, accountId } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const [[oldest]] = d1("SELECT MIN(created_at) AS at FROM conversations", { remote });
  const from = Math.min(oldest?.at ?? now, now - 2 * 366 * DAY);
  const calendars = calendarStatements(remote, from, now);
  // A file, not --command: calendars of many inboxes outgrow one command-line argument.
  const file = path.join(tmpdir(), `parley-reports-rebuild-${process.pid}.sql`);
  writeFileSync(file, `${[...calendars, ...rebuildStatements(accountId)].join(";\n")};\n`);
  try {
    wrangler(["d1", "execute", "DB", remote ? "--remote" : "--local", "--yes", "--file", file]);
  } finally {
    rmSync(file, { force: true });
  }
  const [[count]] = d1(
    `SELECT COUNT(*) AS n FROM reporting_events ${accountId ? `WHERE account_id = ${Number(accountId)}` : ""}`,
    { remote },
  );
  return count.n;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const remote = args.includes("--remote");
  const at = args.indexOf("--account");
  const accountId = at >= 0 ? args[at + 1] : undefined;
  const n = rebuildReports({ remote, accountId });
  console.log(
    `reports rebuilt${accountId ? ` for account ${accountId}` : ""}: ${n} reporting events`,
  );
}
