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

const DAY = 86_400;
/** The calendars reach back this far before the oldest conversation (as the Worker's do). */
const CALENDAR_AHEAD = 60 * DAY;

/** Business seconds of inbox `inbox` up to `t`: the SQL twin of queries.calendar.ts. */
const clock = (
  inbox,
  t,
) => `COALESCE((SELECT h."before" + MIN(MAX(${t} - h.start, 0), h."end" - h.start)
  FROM reporting_hours h WHERE h.inbox_id = ${inbox} AND h.start <= ${t}
  ORDER BY h.start DESC LIMIT 1), 0)`;

const COLUMNS = `(account_id, name, value, value_in_business_hours, inbox_id, user_id, team_id,
  conversation_id, event_start_time, event_end_time, created_at)`;

/** One fact per row of `from` (naming `c` and the start/end/user expressions). */
const fact = (name, { start, end, user, from }) => `INSERT INTO reporting_events ${COLUMNS}
  SELECT c.account_id, ${q(name)}, (${end}) - (${start}),
    ${clock("c.inbox_id", end)} - ${clock("c.inbox_id", start)},
    c.inbox_id, ${user}, c.team_id, c.id, ${start}, ${end}, ${end}
  ${from}`;

const HUMAN = `m.message_type = 1 AND m.private = 0 AND m.sender_type = 'User'
  AND json_extract(CASE WHEN json_valid(m.content_attributes) THEN m.content_attributes ELSE '{}' END,
    '$.automation_rule_id') IS NULL`;

/** Human replies numbered per conversation, in the conversation's order. */
const REPLIES = `WITH r AS (SELECT m.*, ROW_NUMBER() OVER (PARTITION BY m.conversation_id ORDER BY m.seq) AS n
  FROM messages m WHERE ${HUMAN})`;

export function rebuildStatements(accountId) {
  const only = (alias) => (accountId ? `AND ${alias}.account_id = ${Number(accountId)}` : "");
  const conv = (where = "") => `FROM conversations c WHERE 1 ${only("c")} ${where}`;
  return [
    `DELETE FROM reporting_rollups WHERE 1 ${only("reporting_rollups")}`,
    `DELETE FROM reporting_events WHERE 1 ${only("reporting_events")}`,
    fact("conversation_created", {
      start: "c.created_at",
      end: "c.created_at",
      user: "c.assignee_id",
      from: conv(),
    }),
    // Only the current assignee and team are stored: counted as assigned at creation.
    fact("conversation_assigned", {
      start: "c.created_at",
      end: "c.created_at",
      user: "c.assignee_id",
      from: conv("AND c.assignee_id IS NOT NULL"),
    }),
    fact("conversation_team_assigned", {
      start: "c.created_at",
      end: "c.created_at",
      user: "c.assignee_id",
      from: conv("AND c.team_id IS NOT NULL"),
    }),
    `INSERT INTO reporting_events ${COLUMNS}
      SELECT c.account_id, CASE m.message_type WHEN 0 THEN 'message_incoming' ELSE 'message_outgoing' END,
        0, 0, c.inbox_id,
        CASE WHEN m.message_type = 0 THEN c.assignee_id WHEN m.sender_type = 'User' THEN m.sender_id END,
        c.team_id, c.id, m.created_at, m.created_at, m.created_at
      FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.message_type IN (0, 1) AND m.private = 0 ${only("c")}`,
    `${REPLIES} ${fact("first_response", {
      start: "c.created_at",
      end: "r.created_at",
      user: "r.sender_id",
      from: `FROM r JOIN conversations c ON c.id = r.conversation_id WHERE r.n = 1 ${only("c")}`,
    })}`,
    // A later reply ends the wait that the customer's first message after the previous reply began.
    `${REPLIES}, w AS (SELECT cur.conversation_id, cur.sender_id, cur.created_at AS at,
        (SELECT MIN(i.created_at) FROM messages i WHERE i.conversation_id = cur.conversation_id
          AND i.message_type = 0 AND i.seq > prev.seq AND i.seq < cur.seq) AS since
      FROM r cur JOIN r prev ON prev.conversation_id = cur.conversation_id AND prev.n = cur.n - 1)
    ${fact("reply_time", {
      start: "w.since",
      end: "w.at",
      user: "w.sender_id",
      from: `FROM w JOIN conversations c ON c.id = w.conversation_id WHERE w.since IS NOT NULL ${only("c")}`,
    })}`,
    // A resolved conversation: its last change is taken as the resolution.
    fact("conversation_resolved", {
      start: "c.created_at",
      end: "c.updated_at",
      user: "c.assignee_id",
      from: conv("AND c.status = 'resolved'"),
    }),
    fact("conversation_bot_resolved", {
      start: "c.created_at",
      end: "c.updated_at",
      user: "NULL",
      from: conv(`AND c.status = 'resolved' AND c.first_reply_created_at IS NULL
        AND EXISTS (SELECT 1 FROM agent_bot_inboxes b WHERE b.inbox_id = c.inbox_id AND b.status = 'active')`),
    }),
  ];
}

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
