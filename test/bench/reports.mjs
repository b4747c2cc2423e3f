// Issue #12 benchmark: E17, E18 and a one-year daily time series over 10k vs 1M reporting events
// (300 agents, 50 teams, one year), served by `wrangler dev` (workerd + local D1). Prints p50/p95
// per case, the large/small ratios (target ≤ 2: rollups, not scans) and E17 at 1M against the
// server's own no-op floor (`GET /`, target within 2×).
import { fmt, freshDatabase, getJson, measure, printTable, startServer } from "./lib.mjs";

const TOKEN = "benchReportsToken0000001";
const SCALES = [
  { name: "small", events: 10_000 },
  { name: "large", events: 1_000_000 },
];
const AGENTS = 300;
const TEAMS = 50;
const YEAR = 365 * 86_400;
const BASE_TIME = 1_704_067_200; // 2024-01-01T00:00:00Z
const NAMES = [
  "first_response",
  "reply_time",
  "conversation_resolved",
  "conversation_assigned",
  "message_outgoing",
  "conversation_labelled",
];
const LABELS = 20;
const INBOXES = 10;
const CHANNELS = ["Channel::Api", "Channel::WebWidget", "Channel::Email"];
/** The trigger's first-response buckets (migration 0029). */
const BUCKET = `CASE WHEN e.value < 3600 THEN 'first_response:0-1h'
  WHEN e.value < 14400 THEN 'first_response:1-4h' WHEN e.value < 28800 THEN 'first_response:4-8h'
  WHEN e.value < 86400 THEN 'first_response:8-24h' ELSE 'first_response:24h+' END`;

/** Rollups of every dimension and grain, summed from the events in one statement each. */
const rollups = (dimension, idExpr, metric = "e.name", where = "true") =>
  [
    ["hour", "e.created_at - e.created_at % 3600"],
    ["day", "e.created_at - e.created_at % 86400"],
    ["month", "CAST(strftime('%s', e.created_at, 'unixepoch', 'start of month') AS INTEGER)"],
    ["year", "CAST(strftime('%s', e.created_at, 'unixepoch', 'start of year') AS INTEGER)"],
  ]
    .map(
      ([grain, period]) => `INSERT INTO reporting_rollups
  SELECT e.account_id, '${dimension}', '${grain}', ${metric}, ${period}, ${idExpr}, COUNT(*), SUM(e.value),
    SUM(e.value_in_business_hours)
  FROM reporting_events e WHERE ${idExpr} IS NOT NULL AND ${where} GROUP BY 1, 2, 3, 4, 5, 6;`,
    )
    .join("\n");

/**
 * Events spread evenly over the year, agents and teams. The seed bulk-loads rollups with GROUP BY
 * instead of the per-row trigger (same sums, minutes faster at 1M); the server never writes here.
 */
function seedSql({ events }) {
  return `
DROP TRIGGER reporting_events_rollup;
INSERT INTO accounts (name) VALUES ('Bench');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${AGENTS})
INSERT INTO users (name, email, pubsub_token) SELECT 'Agent ' || i, 'a' || i || '@example.com', 'ps' || i FROM n;
INSERT INTO account_users (account_id, user_id, role) SELECT 1, id, CASE id WHEN 1 THEN 'administrator' ELSE 'agent' END FROM users;
INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('User', 1, '${TOKEN}');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TEAMS})
INSERT INTO teams (account_id, name) SELECT 1, 'team' || i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${INBOXES})
INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token)
  SELECT 1, 'Bench ' || i, CASE i % 3 ${CHANNELS.map((c, k) => `WHEN ${k} THEN '${c}'`).join(" ")} END,
    'benchinbox' || i, 'benchhmac' || i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${LABELS})
INSERT INTO labels (account_id, title) SELECT 1, 'label' || i FROM n;
INSERT INTO contacts (account_id, name) VALUES (1, 'Bench contact');
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${events - 1})
INSERT INTO reporting_events (account_id, name, value, value_in_business_hours, inbox_id, user_id, team_id,
  conversation_id, event_start_time, event_end_time, created_at, label_id)
SELECT 1, CASE i % ${NAMES.length} ${NAMES.map((n, k) => `WHEN ${k} THEN '${n}'`).join(" ")} END,
  (i % 100000) + 60, (i % 3600), (i % ${INBOXES}) + 1, (i % ${AGENTS}) + 1, (i % ${TEAMS}) + 1,
  i / ${NAMES.length} + 1,
  ${BASE_TIME} + i * ${YEAR} / ${events} - 600, ${BASE_TIME} + i * ${YEAR} / ${events},
  ${BASE_TIME} + i * ${YEAR} / ${events},
  CASE i % ${NAMES.length} WHEN ${NAMES.indexOf("conversation_labelled")} THEN (i % ${LABELS}) + 1 END
FROM n;
-- One conversation per ${NAMES.length} events (the channel summary reads conversations).
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${Math.floor(events / NAMES.length) - 1})
INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, status, last_activity_at, created_at, updated_at)
SELECT 1, i + 1, 'bench-' || i, (i % ${INBOXES}) + 1, 1,
  CASE i % 4 WHEN 0 THEN 'open' WHEN 1 THEN 'resolved' WHEN 2 THEN 'pending' ELSE 'snoozed' END,
  ${BASE_TIME} + i * ${YEAR} / ${Math.floor(events / NAMES.length)}, ${BASE_TIME} + i * ${YEAR} / ${Math.floor(events / NAMES.length)},
  ${BASE_TIME} + i * ${YEAR} / ${Math.floor(events / NAMES.length)}
FROM n;
${rollups("account", "0")}
${rollups("user", "e.user_id")}
${rollups("team", "e.team_id")}
${rollups("inbox", "e.inbox_id")}
${rollups("inbox", "e.inbox_id", BUCKET, "e.name = 'first_response'")}
${rollups("inbox_label", "e.inbox_id * 4294967296 + e.label_id", "e.name", "e.name = 'conversation_labelled'")}
`;
}

async function runScale(scale, port) {
  const { dir, seedSeconds } = freshDatabase(`reports-${scale.name}`, seedSql(scale));
  process.stdout.write(
    `seeded ${scale.name}: ${scale.events} reporting events in ${seedSeconds.toFixed(1)} s\n`,
  );
  const server = await startServer(dir, port);
  const url = (p) => `${server.base}/api/v2/accounts/1${p}`;
  // A year with partial edge days, so each read also touches raw events.
  const range = `since=${BASE_TIME + 3600}&until=${BASE_TIME + YEAR - 3600}`;
  const halfYear = `since=${BASE_TIME + 3600}&until=${BASE_TIME + 182 * 86_400}`;
  const nonEmpty = (keys) => (body) => {
    if (Object.keys(body ?? {}).length !== keys) {
      throw new Error(`expected ${keys} channels: ${JSON.stringify(body).slice(0, 200)}`);
    }
  };
  const rows = (expected) => (body) => {
    if (!Array.isArray(body) || body.length !== expected) {
      throw new Error(`expected ${expected} rows: ${JSON.stringify(body).slice(0, 200)}`);
    }
    if (!body.some((r) => (r.resolved_conversations_count ?? r.value) > 0)) {
      throw new Error("no data in the answer");
    }
  };
  try {
    const cases = {
      "GET / (no-op floor)": () =>
        fetch(`${server.base}/`).then((r) => {
          if (!r.ok) {
            throw new Error(`GET / → ${r.status}`);
          }
          return r.text();
        }),
      "E17 agents, one year": () =>
        getJson(url(`/summary_reports/agent?${range}`), TOKEN).then(rows(AGENTS)),
      "E18 teams, one year": () =>
        getJson(url(`/summary_reports/team?${range}`), TOKEN).then(rows(TEAMS)),
      "series: year, daily": () =>
        getJson(
          url(`/reports?metric=resolutions_count&type=account&group_by=day&${range}`),
          TOKEN,
        ).then(rows(365)),
      // Local days at UTC-5: Dec 31 (the range starts 20:00 local) to Dec 30, 366 buckets.
      "series: year, daily, UTC-5": () =>
        getJson(
          url(
            `/reports?metric=resolutions_count&type=account&group_by=day&timezone_offset=-5&${range}`,
          ),
          TOKEN,
        ).then(rows(366)),
      "first response distribution, one year": () =>
        getJson(url(`/reports/first_response_time_distribution?${range}`), TOKEN).then(
          nonEmpty(CHANNELS.length),
        ),
      "outgoing messages by agent, one year": () =>
        getJson(url(`/reports/outgoing_messages_count?group_by=agent&${range}`), TOKEN).then(
          (body) => {
            // Every sixth event is a message, so every sixth agent sent them.
            const senders = AGENTS / NAMES.length;
            if (!Array.isArray(body) || body.length !== senders) {
              throw new Error(`expected ${senders} rows: ${JSON.stringify(body).slice(0, 200)}`);
            }
          },
        ),
      "inbox-label matrix, one year": () =>
        getJson(url(`/reports/inbox_label_matrix?${range}`), TOKEN).then((body) => {
          if (body?.matrix?.length !== INBOXES || !body.matrix.flat().some((n) => n > 0)) {
            throw new Error(`unexpected matrix: ${JSON.stringify(body).slice(0, 200)}`);
          }
        }),
      // Rollups of conversations by current status (migration 0034), raw only at the edges.
      "channel summary, six months": () =>
        getJson(url(`/summary_reports/channel?${halfYear}`), TOKEN).then(nonEmpty(CHANNELS.length)),
    };
    const results = {};
    // REPORTS_ONLY=channel measures the cases whose name holds it (and the floor) only.
    const only = process.env.REPORTS_ONLY;
    for (const [name, fn] of Object.entries(cases)) {
      if (only && !name.includes(only) && !name.startsWith("GET /")) {
        continue;
      }
      results[name] = await measure(fn, { n: 200, warmup: 20 });
    }
    return results;
  } finally {
    await server.stop();
  }
}

export async function main() {
  const byScale = {};
  let port = 8951;
  for (const scale of SCALES) {
    byScale[scale.name] = await runScale(scale, port++);
    printTable(
      `${scale.name}: ${scale.events} reporting events, ${AGENTS} agents, ${TEAMS} teams`,
      Object.entries(byScale[scale.name]).map(([name, r]) => ({ name, ...r })),
    );
  }
  process.stdout.write("\nratios large/small (p95)\n");
  for (const name of Object.keys(byScale.small).filter((n) => byScale.large[n])) {
    const ratio = byScale.large[name].p95 / byScale.small[name].p95;
    process.stdout.write(
      `  ${name.padEnd(24)} ${fmt(ratio)}×  (p50 ${fmt(byScale.large[name].p50 / byScale.small[name].p50)}×)\n`,
    );
  }
  const large = byScale.large;
  if (!large["E17 agents, one year"]) {
    return byScale;
  }
  process.stdout.write(
    `\nE17 at 1M vs the no-op floor (p95): ${fmt(large["E17 agents, one year"].p95 / large["GET / (no-op floor)"].p95)}×\n`,
  );
  return byScale;
}
