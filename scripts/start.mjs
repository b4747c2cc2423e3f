// `npm start`: migrate the local D1, seed a demo account when empty, serve on 127.0.0.1:$PORT.
import { DEMO, demoFacts, isEmpty, seed } from "./lib/seed.mjs";
import { applyMigrations, startDev } from "./lib/wrangler.mjs";
import { seedReportHistory } from "./reports-seed.mjs";

const port = Number(process.env.PORT ?? 8787);
const host = "127.0.0.1";
const base = `http://${host}:${port}`;

const log = (line = "") => process.stdout.write(`${line}\n`);

async function waitUntilReady(child) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`wrangler dev exited with code ${child.exitCode}`);
    }
    try {
      const res = await fetch(`${base}/openapi.json`);
      if (res.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${base}/openapi.json did not answer within 120 s`);
}

/**
 * Miniflare never fires cron triggers by itself, so the outbox sweep (unsent events, retries
 * whose queue message was lost) would not run locally; tick it as the deployed cron would.
 */
function tickCron(child) {
  const timer = setInterval(() => {
    if (child.exitCode === null) {
      fetch(`${base}/__scheduled?cron=${encodeURIComponent("* * * * *")}`).catch(() => undefined);
    }
  }, 60_000);
  timer.unref();
}

/** The demo's facts for the front door and /docs (PARLEY_DEMO, read by worker/lib/demo.ts). */
function demoVar(f) {
  if (!f.account) {
    return [];
  }
  const facts = new URLSearchParams({ account: String(f.account.id) });
  for (const [name, value] of [
    ["admin", f.admin?.token],
    ["agent", f.agent?.token],
    ["widget", f.widgetInbox?.inbox_identifier],
    ["api_inbox", f.apiInbox?.inbox_identifier],
    ["platform", f.platform?.token],
  ]) {
    if (value) {
      facts.set(name, value);
    }
  }
  return ["--var", `PARLEY_DEMO:${facts}`];
}

function printFacts(seededNow, f) {
  if (!f.account) {
    log(
      "The local database has data but no demo account; use `npm run --silent platform:token` to provision.",
    );
    return;
  }
  log();
  log(`Parley is serving on ${base}`);
  log(
    seededNow
      ? "Seeded a demo account into the empty local database:"
      : "Demo account (seeded earlier):",
  );
  log(`  account id            ${f.account.id}  (${DEMO.account})`);
  log(`  platform token        ${f.platform?.token ?? "(none)"}`);
  log(`  admin access token    ${f.admin?.token}  (${DEMO.admin.email})`);
  log(`  agent access token    ${f.agent?.token}  (${DEMO.agent.email})`);
  log(`  API inbox identifier  ${f.apiInbox?.inbox_identifier}  (inbox ${f.apiInbox?.id})`);
  log(`  widget inbox          ${f.widgetInbox?.inbox_identifier}  (inbox ${f.widgetInbox?.id})`);
  log();
  log(`  agents' app           ${base}/app`);
  if (f.demoPassword) {
    log(`    sign in as          ${DEMO.agent.email} / ${f.demoPassword}  (agent)`);
    log(`                        ${DEMO.admin.email} / ${f.demoPassword}  (administrator)`);
  } else {
    log("    (this database was seeded before the demo users had passwords: delete .wrangler/)");
  }
  if (f.widgetInbox) {
    log(`  widget demo           ${base}/demo?inbox=${f.widgetInbox.inbox_identifier}`);
  }
  log(`  API docs              ${base}/docs`);
  log(`  OpenAPI               ${base}/openapi.json`);
  log(
    `  account details       curl -H 'api_access_token: ${f.admin?.token}' ${base}/api/v1/accounts/${f.account.id}`,
  );
  log();
}

async function main() {
  log("Applying migrations to the local D1 database…");
  applyMigrations();
  const seededNow = isEmpty();
  if (seededNow) {
    seed(base);
    // A few weeks of answered and resolved conversations, so the reports are not empty.
    seedReportHistory({
      accountName: DEMO.account,
      adminEmail: DEMO.admin.email,
      agentEmail: DEMO.agent.email,
      inboxName: DEMO.apiInbox,
    });
  }

  const facts = demoFacts();
  const child = startDev([
    "--ip",
    host,
    "--port",
    String(port),
    "--var",
    "PARLEY_ALLOW_LOOPBACK_WEBHOOKS:1",
    // Mailed links are built on PUBLIC_URL only (never the request's Host): this server's own.
    "--var",
    `PUBLIC_URL:${base}`,
    "--test-scheduled",
    ...demoVar(facts),
  ]);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("exit", (code) => process.exit(code ?? 0));
  await waitUntilReady(child);
  tickCron(child);
  printFacts(seededNow, facts);
}

main().catch((err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
