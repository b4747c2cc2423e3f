// Issue #5 benchmark: 10,000 message_created events through the whole pipeline (outbox row in
// the message's D1 batch → queue → consumer → signed POST) to a local Node receiver, served by
// `wrangler dev` with its local queue and cron. Reports commit → delivery latency p50 / p99 and
// events per second; then the same with the receiver answering 500 for its first minute: events
// lost (must be 0) and duplicates after de-duplication by delivery id (must be 0).
//
// The retry schedule is shortened for the run with WEBHOOK_RETRY_SCHEDULE (passed to wrangler dev
// with --var; production keeps Standard Webhooks' 5 s … 10 h). EVENTS=n overrides the count.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { fmt, freshDatabase, percentile, startServer } from "./lib.mjs";

const TOKEN = "benchWebhookToken0000001";
const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const EVENTS = Number(process.env.EVENTS ?? 10_000);
const CONVERSATIONS = 50;
const CONCURRENCY = 16;
const OUTAGE_MS = 60_000;
const RETRY_SCHEDULE = "1,2,4,8,16,32,64,64";
const DRAIN_TIMEOUT_MS = 10 * 60_000;

const seed = (receiverUrl) => `
INSERT INTO accounts (name) VALUES ('Webhooks');
INSERT INTO users (name, email, pubsub_token) VALUES ('Bench Admin', 'wh@example.com', 'whpubsub');
INSERT INTO account_users (account_id, user_id, role) VALUES (1, 1, 'administrator');
INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('User', 1, '${TOKEN}');
INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token) VALUES (1, 'Bench', 'Channel::Api', 'whinbox', 'whhmac');
INSERT INTO webhooks (account_id, url, name, subscriptions, secret) VALUES (1, '${receiverUrl}', 'bench', '["message_created"]', '${SECRET}');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${CONVERSATIONS})
INSERT INTO contacts (account_id, name) SELECT 1, 'Visitor ' || i FROM n;
INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token) SELECT id, 1, 'src-' || id, 'ps-' || id FROM contacts;
INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, last_activity_at)
  SELECT 1, id, 'uuid-' || id, 1, id, id, 0 FROM contacts;
`;

/** Checks the spec's signature: "sha256=" + hex HMAC(secret, "{timestamp}.{body}"). */
function verified(headers, body) {
  const expected = `sha256=${createHmac("sha256", SECRET).update(`${headers["x-service-timestamp"]}.${body}`).digest("hex")}`;
  const given = Buffer.from(String(headers["x-service-signature"] ?? ""));
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
}

/** A receiver that records each 2xx-answered delivery by its X-Service-Delivery id. */
function startReceiver(port) {
  const state = { failUntil: 0, received: new Map(), answered: 0, failed: 0, badSignatures: 0 };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      if (Date.now() < state.failUntil) {
        state.failed++;
        res.writeHead(500).end("down");
        return;
      }
      if (!verified(req.headers, body)) {
        state.badSignatures++;
      }
      const id = req.headers["x-service-delivery"];
      const content = JSON.parse(body).content;
      if (!state.received.has(id)) {
        state.received.set(id, { content, at: performance.now(), copies: 0 });
      }
      state.received.get(id).copies++;
      state.answered++;
      res.writeHead(200).end("ok");
    });
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () => resolve({ state, close: () => server.close() })),
  );
}

/** Posts EVENTS messages (CONCURRENCY at a time); returns when each one's commit was answered. */
async function postMessages(base, tag) {
  const committed = new Map();
  let next = 0;
  const worker = async () => {
    while (next < EVENTS) {
      const i = next++;
      const content = `${tag}-${i}`;
      const res = await fetch(
        `${base}/api/v1/accounts/1/conversations/${(i % CONVERSATIONS) + 1}/messages`,
        {
          method: "POST",
          headers: { api_access_token: TOKEN, "content-type": "application/json" },
          body: JSON.stringify({ content }),
        },
      );
      if (res.status !== 200) {
        throw new Error(`message ${i}: ${res.status} ${await res.text()}`);
      }
      committed.set(content, performance.now());
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return committed;
}

async function drain(state, committed) {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  const distinct = () => new Set([...state.received.values()].map((r) => r.content));
  while (Date.now() < deadline) {
    const got = distinct();
    if ([...committed.keys()].every((c) => got.has(c))) {
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

function report(name, state, committed, started) {
  const byContent = new Map();
  for (const [id, r] of state.received) {
    if (committed.has(r.content)) {
      byContent.set(r.content, [...(byContent.get(r.content) ?? []), { id, ...r }]);
    }
  }
  const latencies = [...byContent.entries()]
    .map(([content, rs]) => Math.min(...rs.map((r) => r.at)) - committed.get(content))
    .sort((a, b) => a - b);
  const last = Math.max(...[...byContent.values()].flat().map((r) => r.at));
  const lost = [...committed.keys()].filter((c) => !byContent.has(c)).length;
  // After de-duplication by delivery id, an event that arrived under two ids is a duplicate.
  const duplicates = [...byContent.values()].reduce((n, rs) => n + rs.length - 1, 0);
  const redelivered = [...byContent.values()].flat().reduce((n, r) => n + r.copies - 1, 0);
  const result = {
    name,
    events: committed.size,
    delivered: byContent.size,
    lost,
    duplicates,
    sameIdRedeliveries: redelivered,
    badSignatures: state.badSignatures,
    answered500: state.failed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    eventsPerSecond: byContent.size / ((last - started) / 1000),
  };
  process.stdout.write(
    `\n${name}: ${result.delivered}/${result.events} delivered, lost ${lost}, duplicates ${duplicates} ` +
      `(same-id redeliveries ${redelivered}), bad signatures ${state.badSignatures}, 500s answered ${state.failed}\n` +
      `  commit → delivery latency p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms; ` +
      `${result.eventsPerSecond.toFixed(1)} events/s (first post → last delivery)\n`,
  );
  return result;
}

async function phase(name, { port, receiverPort, outage }) {
  const receiver = await startReceiver(receiverPort);
  const { dir } = freshDatabase(`webhooks-${name}`, seed(`http://127.0.0.1:${receiverPort}/hook`));
  const server = await startServer(dir, port, {
    PARLEY_ALLOW_LOOPBACK_WEBHOOKS: "1",
    WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE,
  });
  try {
    const started = performance.now();
    if (outage) {
      receiver.state.failUntil = Date.now() + OUTAGE_MS;
    }
    const committed = await postMessages(server.base, name);
    process.stdout.write(
      `${name}: ${committed.size} events committed in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    await drain(receiver.state, committed);
    return report(name, receiver.state, committed, started);
  } finally {
    await server.stop();
    receiver.close();
  }
}

export async function main() {
  const healthy = await phase("healthy", { port: 8951, receiverPort: 8961, outage: false });
  const outage = await phase("outage", { port: 8952, receiverPort: 8962, outage: true });
  return { healthy, outage };
}
