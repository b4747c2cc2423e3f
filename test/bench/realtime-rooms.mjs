// Many busy rooms at once: 200 conversations, each with a visitor socket and an agent socket,
// everyone sending over the socket for 30 s at a human-ish pace (visitors within the public
// API's 30 messages a minute), every message timed to its arrival on the other side's socket.
import { freshDatabase, startServer } from "./lib.mjs";
import { watchCpu } from "./realtime-cpu.mjs";
import { d1Writes, watchD1 } from "./realtime-d1.mjs";
import { framesOf, open, summarize } from "./realtime-ws.mjs";

export const ROOMS = Number(process.env.BENCH_ROOMS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const FLAT_SECONDS = Number(process.env.BENCH_FLAT_SECONDS ?? 15);
const VISITOR_EVERY_MS = 2200; // 0.45/s, under the per-contact 30/min
const AGENT_EVERY_MS = 450; // 2.2/s
const TOKEN = "benchRoomsToken000000001";

function seed() {
  const rows = [
    "INSERT INTO accounts (name) VALUES ('Rooms');",
    "INSERT INTO users (name, email, pubsub_token) VALUES ('Agent', 'rooms@example.com', 'rps');",
    "INSERT INTO account_users (account_id, user_id, role) VALUES (1, 1, 'administrator');",
    `INSERT INTO access_tokens (owner_type, owner_id, token) VALUES ('User', 1, '${TOKEN}');`,
    "INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token) VALUES (1, 'Rooms', 'Channel::Api', 'roomsinbox', 'roomshmac');",
  ];
  for (let i = 1; i <= ROOMS; i++) {
    rows.push(
      `INSERT INTO contacts (account_id, name) VALUES (1, 'Visitor ${i}');`,
      `INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token) VALUES (${i}, 1, 'src-${i}', 'ps-${i}');`,
      `INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, last_activity_at) VALUES (1, ${i}, 'room-${i}', 1, ${i}, ${i}, 0);`,
    );
  }
  return rows.join("\n");
}

/**
 * One side of one room: sends on a timer, acks by echo_id, times what the other side sent.
 * `phase`: the run's tally and latencies, and whether agents send again as soon as they are
 * acked (flat out; cleared when the sending phase ends).
 */
function party(ws, name, sentAt, phase) {
  const waiting = new Map();
  let lastSeq = 0;
  ws.onmessage = (e) => {
    const now = performance.now();
    const { tally, latencies } = phase;
    for (const f of framesOf(e.data)) {
      if (f.event === "ack" || f.event === "error") {
        if (f.event === "ack" && !f.data.duplicate) {
          tally.d1.acked(f.data.id);
        }
        const done = waiting.get(f.data.echo_id);
        waiting.delete(f.data.echo_id);
        done?.(f.event === "ack");
        if (done && phase.flatOut && name.startsWith("a")) {
          tick();
        }
        continue;
      }
      if (f.event !== "message.created") {
        continue;
      }
      if (f.data.seq <= lastSeq) {
        tally.reordered.add(name);
      }
      lastSeq = Math.max(lastSeq, f.data.seq);
      const started = sentAt.get(f.data.content);
      if (started !== undefined && !f.data.content.startsWith(name)) {
        latencies.push(now - started);
        tally.received++;
      }
    }
  };
  let n = 0;
  // Closed loop: a party whose last message is not acked yet skips its turn, so an overloaded
  // server slows the senders down (and shows as a lower rate) instead of piling up a backlog.
  const tick = () => {
    const { tally } = phase;
    if (waiting.size > 0) {
      tally.skipped++;
      return;
    }
    const echo = `${name}-${++n}`;
    sentAt.set(echo, performance.now());
    tally.sent++;
    waiting.set(echo, (ok) => (ok ? tally.acked++ : tally.refused++));
    ws.send(JSON.stringify({ type: "message.create", echo_id: echo, content: echo }));
  };
  return tick;
}

/**
 * `hooks`: more wrangler dev flags (`args`), and calls around the sending phase (the profiler).
 * `flatOut`: the rooms' capacity instead of their latency at a human pace, which offers at most
 * ROOMS × (1/2.2 s + 1/0.45 s) ≈ 535 msg/s whatever the server could do: only the agents send
 * (visitors are held to 30 a minute), each again as soon as its last message is acked.
 */
export async function measureRooms(port, hooks = {}, { flatOut = false } = {}) {
  const { dir } = freshDatabase(flatOut ? "realtime-rooms-flat" : "realtime-rooms", seed());
  const server = await startServer(dir, port, {}, { args: hooks.args ?? [], direct: true });
  const ws = server.base.replace("http", "ws");
  const sentAt = new Map();
  const latencies = [];
  const phase = { flatOut, latencies };
  const tally = {
    sent: 0,
    acked: 0,
    refused: 0,
    skipped: 0,
    received: 0,
    reordered: new Set(),
    d1: watchD1(dir),
  };
  phase.tally = tally;
  const sockets = [];
  const timers = [];
  try {
    // Every socket is open before anyone sends, so the sending phase is measured alone.
    const pairs = [];
    for (let i = 1; i <= ROOMS; i++) {
      pairs.push(
        await Promise.all([
          open(
            `${ws}/public/api/v1/inboxes/roomsinbox/contacts/src-${i}/conversations/${i}/live?batch=1`,
          ),
          open(`${ws}/api/v1/accounts/1/conversations/${i}/live?batch=1&api_access_token=${TOKEN}`),
        ]),
      );
    }
    pairs.forEach(([visitor, agent], index) => {
      const i = index + 1;
      sockets.push(visitor, agent);
      const v = party(visitor, `v${i}`, sentAt, phase);
      const a = party(agent, `a${i}`, sentAt, phase);
      // Staggered starts, so the rooms do not all send in the same millisecond.
      const offset = Math.random() * AGENT_EVERY_MS;
      if (flatOut) {
        timers.push(setTimeout(a, offset));
        return;
      }
      timers.push(
        setTimeout(() => timers.push(setInterval(v, VISITOR_EVERY_MS)), offset),
        setTimeout(() => timers.push(setInterval(a, AGENT_EVERY_MS)), offset),
      );
    });
    await hooks.sending?.();
    const cpuWatch = watchCpu(server);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, (flatOut ? FLAT_SECONDS : SECONDS) * 1000));
    phase.flatOut = false;
    for (const t of timers) {
      clearTimeout(t);
      clearInterval(t);
    }
    const sendingSeconds = (performance.now() - t0) / 1000;
    const cpu = cpuWatch.stop(tally.acked);
    await hooks.sent?.();
    // Let the last frames and acks arrive.
    await new Promise((r) => setTimeout(r, 3000));
    const { d1, ...counts } = tally;
    return {
      ...counts,
      direct: server.direct,
      d1Lag: await d1.lag(),
      // Read once the server is stopped (below): batches still in flight have finished.
      d1Writes: () => d1Writes(dir),
      cpu,
      rooms: ROOMS,
      sendingSeconds,
      reordered: tally.reordered.size,
      perSecond: tally.acked / sendingSeconds,
      latency: summarize(latencies),
      dir,
    };
  } finally {
    for (const s of sockets) {
      s.close();
    }
    await server.stop();
  }
}
