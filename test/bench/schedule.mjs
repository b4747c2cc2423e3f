// Issue 22 point 9: one cron tick (the sweep, with its timed work: snooze wake-up, auto-resolve,
// the assignment queue) over 10k and 100k open conversations, 1,000 of them idle past the
// account's auto_resolve_after, served by `wrangler dev --test-scheduled` (workerd + local D1).
// The tick only finds them and fans them out on the TIMED queue; the local queue's consumer
// resolves them. Prints the tick itself, the time from the tick until all 1,000 are resolved with
// their notes (watched in the D1 file), then the p50/p95 of ticks with nothing due; the 100k/10k
// ratios should stay near 1 (target ≤ 2): due rows are read through indexes.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { childEnv, root } from "../../scripts/lib/wrangler.mjs";
import { fmt, freshDatabase, measure, startServer } from "./lib.mjs";

const SCALES = [
  { name: "10k", total: 10_000 },
  { name: "100k", total: 100_000 },
];
const DUE = 1_000;
const ACCOUNTS = 10;
const NOW = Math.floor(Date.now() / 1000);
/** Due: idle for a day; the rest: active a minute ago (auto_resolve_after is 60 minutes). */
const IDLE = NOW - 86_400;
const FRESH = NOW - 60;

function seedSql({ total }) {
  return `
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ACCOUNTS})
INSERT INTO accounts (name, settings) SELECT 'Bench ' || i, '{"auto_resolve_after":60}' FROM n;
INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token, enable_auto_assignment)
  SELECT id, 'Bench', 'Channel::Api', 'benchinbox' || id, 'benchhmac' || id, 0 FROM accounts;
INSERT INTO contacts (account_id, name) SELECT id, 'Bench contact' FROM accounts;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${total - 1})
INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, status,
  last_activity_at, created_at, updated_at)
SELECT (i % ${ACCOUNTS}) + 1, i + 1, 'bench-' || i, (i % ${ACCOUNTS}) + 1, (i % ${ACCOUNTS}) + 1, 'open',
  CASE WHEN i < ${DUE} THEN ${IDLE} ELSE ${FRESH} END, ${IDLE}, ${IDLE}
FROM n;
`;
}

const tick = (base) =>
  fetch(`${base}/__scheduled?cron=${encodeURIComponent("* * * * *")}`).then(async (r) => {
    if (!r.ok) {
      throw new Error(`tick → ${r.status}: ${await r.text()}`);
    }
  });

/** How many conversations the server resolved (read after it stopped). */
function resolvedCount(dir) {
  const r = spawnSync(
    path.join(root, "node_modules", ".bin", "wrangler"),
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      dir,
      "--json",
      "--command",
      "SELECT COUNT(*) AS n FROM conversations WHERE status = 'resolved'",
    ],
    { cwd: root, env: childEnv, encoding: "utf8" },
  );
  return JSON.parse(r.stdout)[0].results[0].n;
}

/** Resolves once the server's D1 file holds `DUE` resolved conversations and their notes. */
async function allResolved(dir, timeoutMs = 900_000) {
  const d1 = path.join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
  const [file] = readdirSync(d1).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  const db = new DatabaseSync(path.join(d1, file), { readOnly: true });
  const resolved = db.prepare("SELECT COUNT(*) AS n FROM conversations WHERE status = 'resolved'");
  const notes = db.prepare("SELECT COUNT(*) AS n FROM messages WHERE message_type = 2");
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (resolved.get().n >= DUE && notes.get().n >= DUE) {
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`not all ${DUE} resolved within ${timeoutMs / 1000} s`);
  } finally {
    db.close();
  }
}

async function runScale(scale, port) {
  const { dir, seedSeconds } = freshDatabase(`schedule-${scale.name}`, seedSql(scale));
  process.stdout.write(
    `seeded ${scale.name}: ${scale.total} open conversations (${DUE} due) in ${seedSeconds.toFixed(1)} s\n`,
  );
  const server = await startServer(dir, port, {}, { args: ["--test-scheduled"] });
  try {
    const started = performance.now();
    await tick(server.base);
    const dueTick = performance.now() - started;
    await allResolved(dir);
    const allDone = performance.now() - started;
    // The due ones are resolved now: every later tick finds nothing to do.
    const idle = await measure(() => tick(server.base), { n: 20, warmup: 3 });
    await server.stop();
    const resolved = resolvedCount(dir);
    if (resolved !== DUE) {
      throw new Error(`expected ${DUE} resolved, found ${resolved}`);
    }
    return { dueTick, allDone, idle };
  } finally {
    await server.stop();
  }
}

export async function main() {
  const results = {};
  let port = 8990;
  for (const scale of SCALES) {
    results[scale.name] = await runScale(scale, port++);
  }
  const [small, large] = SCALES.map((s) => results[s.name]);
  const rows = [
    [`tick finding ${DUE} due`, small.dueTick, large.dueTick],
    [`tick until ${DUE} resolved`, small.allDone, large.allDone],
    ["tick with nothing due, p50", small.idle.p50, large.idle.p50],
    ["tick with nothing due, p95", small.idle.p95, large.idle.p95],
  ];
  process.stdout.write(
    `\none cron tick (ms)          ${SCALES.map((s) => s.name.padStart(10)).join("")}     ratio\n`,
  );
  for (const [name, a, b] of rows) {
    process.stdout.write(
      `${name.padEnd(28)}${fmt(a).padStart(10)}${fmt(b).padStart(10)}${(b / a).toFixed(2).padStart(10)}\n`,
    );
  }
}
