// The realtime bench's one conversation with 100 listening sockets: the server's floor, messages
// posted over HTTP and sent over a socket one at a time (with the spans of the work behind the
// acks they met), then 3,000 sent over 16 sockets at once.
import { freshDatabase, startServer } from "./lib.mjs";
import { watchCpu } from "./realtime-cpu.mjs";
import { d1Writes, watchD1 } from "./realtime-d1.mjs";
import { watchSpans } from "./realtime-spans.mjs";
import {
  BURST_MESSAGES,
  LATENCY_MESSAGES,
  LISTENERS,
  latency,
  listeners,
  SENDERS,
  sequentialSenders,
  socketBurst,
  summarize,
  WARMUP,
} from "./realtime-ws.mjs";

export const TOKEN = "benchRealtimeToken000001";
const PORT = 8961;
const INSPECTOR = 9341;

export const SEED = `
INSERT INTO accounts (name) VALUES ('Realtime');
INSERT INTO users (name, email, pubsub_token) VALUES ('Bench Admin', 'rt@example.com', 'rtpubsub');
INSERT INTO account_users (account_id, user_id, role) VALUES (1, 1, 'administrator');
INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('User', 1, '${TOKEN}');
INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token) VALUES (1, 'Bench', 'Channel::Api', 'rtinbox', 'rthmac');
INSERT INTO contacts (account_id, name, email) VALUES (1, 'Visitor', 'v@example.com');
INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token) VALUES (1, 1, 'rt-source', 'rt-ps');
INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, last_activity_at) VALUES (1, 1, 'rt-uuid', 1, 1, 1, 0);
`;

const created = (f) =>
  f.event === "message.created" ? { text: f.data.content, order: f.data.seq } : null;

/** The server's floor: GET / touches no storage (sequential latency; rate with 16 in flight). */
async function serverFloor(base) {
  const get = async () => (await fetch(`${base}/`)).arrayBuffer();
  const out = [];
  for (let i = 0; i < WARMUP + LATENCY_MESSAGES; i++) {
    const t0 = performance.now();
    await get();
    if (i >= WARMUP) {
      out.push(performance.now() - t0);
    }
  }
  let done = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (done < BURST_MESSAGES) {
        done++;
        await get();
      }
    }),
  );
  return { latency: summarize(out), perSecond: done / ((performance.now() - t0) / 1000) };
}

/** The writer keeps its transaction counts in storage within a second: before a server stops. */
const countsStored = () => new Promise((r) => setTimeout(r, 1500));

const urls = (server) => {
  const base = `${server.base}/api/v1/accounts/1/conversations/1`;
  return { base, ws: `${base.replace("http", "ws")}/live?batch=1&api_access_token=${TOKEN}` };
};

/**
 * The floor, then 300 sequential posts and 300 sequential socket sends, each until all 100
 * listeners have it. The server logs the work behind the acks as spans (LOG_TIMINGS,
 * realtime-spans.mjs). Its timing lines, sent to the inspector, slowed the sustained step by
 * about 12% (28 Nov: 1,788-1,847 msg/s, against 2,065-2,106 without), so that step runs on a
 * server of its own, without them; the sequential steps' p99s showed no difference.
 */
async function sequentialSteps(dir) {
  const server = await startServer(
    dir,
    PORT,
    { LOG_TIMINGS: "1" },
    { direct: true, args: ["--inspector-port", String(INSPECTOR)] },
  );
  try {
    const spans = await watchSpans(INSPECTOR);
    const { base, ws } = urls(server);
    const floor = await serverFloor(server.base);
    const l = await listeners(ws, LISTENERS, created);
    const post = async (content) => {
      const res = await fetch(`${base}/messages`, {
        method: "POST",
        headers: { api_access_token: TOKEN, "content-type": "application/json" },
        body: JSON.stringify({ content }),
      });
      if (!res.ok) {
        throw new Error(`POST ${res.status} ${await res.text()}`);
      }
      await res.arrayBuffer();
    };
    const http = await latency(post, l, "http");
    const one = await sequentialSenders(ws, WARMUP + LATENCY_MESSAGES);
    const socket = await latency(one.send, l, "sock");
    one.close();
    spans.close();
    const reordered = l.reordered();
    l.close();
    await countsStored();
    return { direct: server.direct, floor, http, socket, spans: spans.spans(), reordered };
  } finally {
    await server.stop();
  }
}

/** 3,000 messages over 16 sockets into the same conversation, on a fresh start of the server. */
async function sustainedStep(dir) {
  const server = await startServer(dir, PORT, {}, { direct: true });
  try {
    const { ws } = urls(server);
    const l = await listeners(ws, LISTENERS, created);
    const d1 = watchD1(dir);
    const cpu = watchCpu(server);
    const burst = await socketBurst(ws, l, (ack) => d1.acked(ack.id));
    burst.cpu = cpu.stop(BURST_MESSAGES);
    const d1Lag = await d1.lag();
    await countsStored();
    const reordered = l.reordered();
    l.close();
    return { direct: server.direct, burst, d1Lag, reordered };
  } finally {
    await server.stop();
  }
}

export async function measureRoom(relayP99) {
  const { dir } = freshDatabase("realtime", SEED);
  const seq = await sequentialSteps(dir);
  const sustained = await sustainedStep(dir);
  return {
    ...seq,
    ...sustained,
    direct: seq.direct && sustained.direct,
    reordered: seq.reordered + sustained.reordered,
    dir,
    relayP99,
    // Read once the server is stopped: batches still in flight have finished.
    d1Writes: () => d1Writes(dir),
  };
}
