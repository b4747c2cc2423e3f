// Issue #4 benchmark: one conversation, 100 listening sockets, messages posted over HTTP to
// `wrangler dev`; post → received-by-every-listener latency and sustained persisted messages/s.
// Baseline in the same run: a bare Node `ws` relay (receive, broadcast to 100, no persistence).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { WebSocketServer } from "ws";
import { childEnv, root } from "../../scripts/lib/wrangler.mjs";
import { fmt, freshDatabase, percentile, startServer } from "./lib.mjs";

const TOKEN = "benchRealtimeToken000001";
const LISTENERS = 100;
const LATENCY_MESSAGES = 300;
const WARMUP = 30;
const BURST_MESSAGES = 3000;
const BURST_CONCURRENCY = 16;

const SEED = `
INSERT INTO accounts (name) VALUES ('Realtime');
INSERT INTO users (name, email, pubsub_token) VALUES ('Bench Admin', 'rt@example.com', 'rtpubsub');
INSERT INTO account_users (account_id, user_id, role) VALUES (1, 1, 'administrator');
INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('User', 1, '${TOKEN}');
INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token) VALUES (1, 'Bench', 'Channel::Api', 'rtinbox', 'rthmac');
INSERT INTO contacts (account_id, name, email) VALUES (1, 'Visitor', 'v@example.com');
INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token) VALUES (1, 1, 'rt-source', 'rt-ps');
INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, last_activity_at) VALUES (1, 1, 'rt-uuid', 1, 1, 1, 0);
`;

/** Opens `n` sockets; each records when it first saw each message text. */
async function listeners(url, n, textOf) {
  const arrivals = Array.from({ length: n }, () => new Map());
  const orders = Array.from({ length: n }, () => []);
  const sockets = await Promise.all(
    arrivals.map(
      (seen, i) =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(url);
          ws.onopen = () => resolve(ws);
          ws.onerror = (e) => reject(new Error(`socket ${i}: ${e.message ?? "error"}`));
          ws.onmessage = (e) => {
            const hit = textOf(e.data);
            if (hit) {
              seen.set(hit.text, performance.now());
              orders[i].push(hit.order);
            }
          };
        }),
    ),
  );
  const waitAll = (text, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      const check = () => {
        if (arrivals.every((m) => m.has(text))) {
          resolve(Math.max(...arrivals.map((m) => m.get(text))));
        } else if (Date.now() > deadline) {
          reject(
            new Error(
              `${text}: ${arrivals.filter((m) => m.has(text)).length}/${n} listeners got it`,
            ),
          );
        } else {
          setImmediate(check);
        }
      };
      check();
    });
  return {
    sockets,
    arrivals,
    orders,
    waitAll,
    close: () => {
      for (const s of sockets) {
        s.close();
      }
    },
  };
}

function summarize(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1),
  };
}

async function measureParley() {
  const { dir } = freshDatabase("realtime", SEED);
  const server = await startServer(dir, 8961);
  const api = `${server.base}/api/v1/accounts/1/conversations/1/messages`;
  const wsUrl = `${server.base.replace("http", "ws")}/api/v1/accounts/1/conversations/1/live?api_access_token=${TOKEN}`;
  const textOf = (raw) => {
    const f = JSON.parse(raw);
    return f.event === "message.created" ? { text: f.data.content, order: f.data.seq } : null;
  };
  const post = async (content) => {
    const res = await fetch(api, {
      method: "POST",
      headers: { api_access_token: TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ content }),
    });
    if (!res.ok) {
      throw new Error(`POST ${res.status} ${await res.text()}`);
    }
    await res.arrayBuffer();
  };
  const floor = await serverFloor(server.base);
  const l = await listeners(wsUrl, LISTENERS, textOf);
  try {
    const latencies = [];
    for (let i = 0; i < WARMUP + LATENCY_MESSAGES; i++) {
      const text = `lat-${i}`;
      const t0 = performance.now();
      await post(text);
      const last = await l.waitAll(text);
      if (i >= WARMUP) {
        latencies.push(last - t0);
      }
    }
    const burst = await burstParley(post, l);
    return { latency: summarize(latencies), burst, floor, dir, stop: server.stop };
  } finally {
    l.close();
  }
}

/**
 * The server's own floor: `GET /` touches no storage, so its latency (sequential) and rate
 * (BURST_CONCURRENCY in flight) are what wrangler dev costs before Parley does anything.
 */
async function serverFloor(base) {
  const get = async () => {
    const res = await fetch(`${base}/`);
    await res.arrayBuffer();
  };
  const latencies = [];
  for (let i = 0; i < WARMUP + LATENCY_MESSAGES; i++) {
    const t0 = performance.now();
    await get();
    if (i >= WARMUP) {
      latencies.push(performance.now() - t0);
    }
  }
  let done = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: BURST_CONCURRENCY }, async () => {
      while (done < BURST_MESSAGES) {
        done++;
        await get();
      }
    }),
  );
  return { latency: summarize(latencies), perSecond: done / ((performance.now() - t0) / 1000) };
}

async function burstParley(post, l) {
  const texts = Array.from({ length: BURST_MESSAGES }, (_, i) => `burst-${i}`);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: BURST_CONCURRENCY }, async () => {
      while (next < texts.length) {
        await post(texts[next++]);
      }
    }),
  );
  const persistedAt = performance.now();
  await l.waitAll(texts.at(-1), 60_000).catch(() => undefined);
  const seconds = (persistedAt - t0) / 1000;
  const received = l.arrivals.map((m) => texts.filter((t) => m.has(t)).length);
  const reordered = l.orders.filter((o) => o.some((v, i) => i > 0 && v <= o[i - 1])).length;
  return {
    seconds,
    perSecond: BURST_MESSAGES / seconds,
    minReceived: Math.min(...received),
    reordered,
  };
}

/** What D1 holds for the conversation after the run: count and whether seq is 1..n without gaps. */
function persisted(dir) {
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
      "SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi, count(DISTINCT seq) AS distinct_seq FROM messages WHERE conversation_id = 1",
    ],
    { cwd: root, env: childEnv, encoding: "utf8" },
  );
  return JSON.parse(r.stdout.slice(r.stdout.indexOf("[")))[0].results[0];
}

async function measureRelay() {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 8962 });
  wss.on("connection", (ws) => {
    ws.on("message", (data, isBinary) => {
      for (const client of wss.clients) {
        if (client !== ws && client.readyState === 1) {
          client.send(data, { binary: isBinary });
        }
      }
    });
  });
  await new Promise((r) => wss.once("listening", r));
  const l = await listeners("ws://127.0.0.1:8962", LISTENERS, (raw) => ({
    text: String(raw),
    order: 0,
  }));
  const sender = await new Promise((resolve) => {
    const ws = new WebSocket("ws://127.0.0.1:8962");
    ws.onopen = () => resolve(ws);
  });
  try {
    const latencies = [];
    for (let i = 0; i < WARMUP + LATENCY_MESSAGES; i++) {
      const text = `lat-${i}`;
      const t0 = performance.now();
      sender.send(text);
      const last = await l.waitAll(text);
      if (i >= WARMUP) {
        latencies.push(last - t0);
      }
    }
    return { latency: summarize(latencies) };
  } finally {
    sender.close();
    l.close();
    await new Promise((r) => wss.close(r));
  }
}

export async function main() {
  const relay = await measureRelay();
  const parley = await measureParley();
  await parley.stop();
  const stored = persisted(parley.dir);
  const expected = WARMUP + LATENCY_MESSAGES + BURST_MESSAGES;
  const row = (name, r) =>
    `  ${name.padEnd(26)} n=${r.n}  p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  max ${fmt(r.max)} ms`;
  process.stdout.write(
    `\npost → received by all ${LISTENERS} listeners (sequential, after ${WARMUP} warm-up)\n`,
  );
  process.stdout.write(`${row("bare Node ws relay", relay.latency)}\n`);
  process.stdout.write(`${row("Parley (HTTP → D1 → DO)", parley.latency)}\n`);
  process.stdout.write(`${row("floor: GET / (no storage)", parley.floor.latency)}\n`);
  process.stdout.write(
    `  ratio Parley / relay      p50 ${fmt(parley.latency.p50 / relay.latency.p50)}×  p99 ${fmt(parley.latency.p99 / relay.latency.p99)}×\n`,
  );
  const b = parley.burst;
  process.stdout.write(
    `\nsustained: ${BURST_MESSAGES} messages over HTTP, ${BURST_CONCURRENCY} in flight, one conversation\n` +
      `  persisted ${fmt(b.perSecond)} messages/s (${fmt(b.seconds)} s); floor: GET / at ${fmt(parley.floor.perSecond)} requests/s\n` +
      `  D1: ${stored.n} rows of ${expected} sent, seq ${stored.lo}..${stored.hi}, ${stored.distinct_seq} distinct → lost ${expected - stored.n}, gaps ${stored.hi - stored.lo + 1 - stored.n}\n` +
      `  listeners: fewest burst frames received ${b.minReceived}/${BURST_MESSAGES}; listeners that saw a reordering: ${b.reordered}\n`,
  );
}
