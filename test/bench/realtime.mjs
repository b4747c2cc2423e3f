// `npm run bench -- realtime`: one conversation with 100 listening sockets (messages posted
// over HTTP, then sent over a socket), sustained sending over 16 sockets, and 200 busy rooms
// at once, against `wrangler dev` (at a human pace for their latency, then flat out for their
// capacity); then a burst into one conversation with the server killed
// (SIGKILL) in its middle and restarted. Baselines measured in the same run: the server's no-op
// floor (GET /), a bare Node `ws` relay, and a bare durable room on the same runtime
// (realtime-bare.mjs: what workerd itself costs a sequential message to 100 listeners). Ends
// with one summary line.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { childEnv, root } from "../../scripts/lib/wrangler.mjs";
import { fmt, stateRoot } from "./lib.mjs";
import { bareLines, measureBare } from "./realtime-bare.mjs";
import { cpuLine } from "./realtime-cpu.mjs";
import { measureKill } from "./realtime-kill.mjs";
import { measureRoom, SEED, TOKEN } from "./realtime-room.mjs";
import { measureRooms } from "./realtime-rooms.mjs";
import { heldBackLines } from "./realtime-spans.mjs";
import {
  BURST_MESSAGES,
  IN_FLIGHT_PER_SENDER,
  LATENCY_MESSAGES,
  LISTENERS,
  latency,
  listeners,
  open,
  SENDERS,
  socketsFor,
  startRelay,
  WARMUP,
} from "./realtime-ws.mjs";

export { SEED };

/** What D1 holds per conversation: rows, and whether seq runs 1..n without gaps. */
function stored(dir, sql) {
  const r = spawnSync(
    path.join(root, "node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", dir, "--json", "--command", sql],
    { cwd: root, env: childEnv, encoding: "utf8" },
  );
  return JSON.parse(r.stdout.slice(r.stdout.indexOf("[")))[0].results;
}

/** From the ack to the row in D1 (target p99 ≤ 250 ms), and D1 transactions per message. */
const d1Line = ({ d1Lag: lag, d1Writes: writes }) => {
  const w = writes();
  return `  D1: lag from ack to row p50 ${fmt(lag.p50)} ms, p99 ${fmt(lag.p99)} ms (target ≤ 250; ${lag.n} acks, ${lag.missing} not seen); ${w.batches} D1 transactions for ${w.messages} messages → ${fmt(w.perThousand)} per 1,000; ${w.reads} groups read D1 before their commit`;
};

export async function main() {
  const relayServer = await startRelay(8962);
  const relayL = await listeners(
    relayServer.url,
    LISTENERS,
    Object.assign((raw) => ({ text: String(raw), order: 0 }), { raw: true }),
  );
  // One sender and, idle, the others Parley's step opens (sequentialSenders): as many sockets.
  const relaySenders = await Promise.all(
    Array.from({ length: socketsFor(WARMUP + LATENCY_MESSAGES) }, () => open(relayServer.url)),
  );
  const relaySender = relaySenders[0];
  const relay = await latency(async (text) => relaySender.send(text), relayL, "lat");
  for (const ws of relaySenders) {
    ws.close();
  }
  relayL.close();
  await relayServer.close();

  const room = await measureRoom(relay.p99);
  const expected = 2 * (WARMUP + LATENCY_MESSAGES) + BURST_MESSAGES;
  const [d1] = stored(
    room.dir,
    "SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM messages WHERE conversation_id = 1",
  );
  const bare = await measureBare(8966);
  const rooms = await measureRooms(8963);
  const [roomsD1] = stored(rooms.dir, "SELECT count(*) AS n FROM messages");
  const flat = await measureRooms(8965, {}, { flatOut: true });
  const [flatD1] = stored(flat.dir, "SELECT count(*) AS n FROM messages");
  const kill = await measureKill(
    8964,
    SEED,
    `/api/v1/accounts/1/conversations/1/live?api_access_token=${TOKEN}`,
  );

  const row = (name, r) =>
    `  ${name.padEnd(30)} n=${r.n}  p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms  max ${fmt(r.max)} ms`;
  const out = [];
  out.push(
    `\none conversation, ${LISTENERS} listeners (batch=1); sequential, after ${WARMUP} warm-up`,
  );
  out.push(
    room.direct && rooms.direct
      ? "  the Worker and its floor reached at the Worker's own port, past wrangler dev's reload proxy (a second workerd that forwards every request and frame; BENCH_VIA_PROXY=1 goes through it)"
      : "  the Worker and its floor reached through wrangler dev's reload proxy",
  );
  out.push(
    `  databases (D1, Durable Objects) under ${stateRoot}${process.env.BENCH_STATE_ROOT ? " (BENCH_STATE_ROOT)" : ", on disk (BENCH_STATE_ROOT moves them)"}`,
  );
  out.push(row("bare Node ws relay", relay));
  out.push(row("floor: GET / (no storage)", room.floor.latency));
  out.push(row("HTTP post → all listeners", room.http));
  out.push(row("socket send → all listeners", room.socket));
  const httpRatio = room.http.p99 / room.floor.latency.p99;
  const socketRatio = room.socket.p99 / relay.p99;
  out.push(
    `  HTTP p99 / floor p99 ${fmt(httpRatio)}× (target ≤ 2.0); socket p99 / relay p99 ${fmt(socketRatio)}× (target ≤ 3.0)`,
  );
  out.push(...heldBackLines(room, relay.p99, fmt));
  out.push(...bareLines(bare, room, relay, fmt));
  const b = room.burst;
  const lostRoom = expected - d1.n + (BURST_MESSAGES - b.minReceived);
  out.push(
    `\nsustained: ${BURST_MESSAGES} messages over ${SENDERS} sockets (${IN_FLIGHT_PER_SENDER} in flight each), one conversation, ${LISTENERS} listeners`,
    `  persisted ${fmt(b.perSecond)} messages/s (${fmt(b.seconds)} s; target ≥ 500); floor: GET / at ${fmt(room.floor.perSecond)} requests/s`,
    `  D1: ${d1.n} rows of ${expected} sent, seq ${d1.lo}..${d1.hi} → lost ${expected - d1.n}, gaps ${d1.hi - d1.lo + 1 - d1.n}`,
    `  listeners: fewest burst messages received ${b.minReceived}/${BURST_MESSAGES}; listeners that saw a reordering: ${room.reordered}`,
    cpuLine(b.cpu, fmt),
    d1Line(room),
  );
  // Acked but never seen in D1 (by id), or never delivered to the other side. D1 may hold more
  // than was acked: messages whose ack came after the sending phase.
  const lostRooms =
    rooms.d1Lag.missing +
    (rooms.acked - rooms.received) +
    flat.d1Lag.missing +
    (flat.acked - flat.received);
  out.push(
    `\n${rooms.rooms} conversations, a visitor and an agent socket each, all sending over the socket for ${fmt(rooms.sendingSeconds)} s`,
    `  sent ${rooms.sent}, acked ${rooms.acked}, refused ${rooms.refused}, turns skipped waiting for an ack ${rooms.skipped}; D1 holds ${roomsD1.n}; delivered to the other side ${rooms.received}`,
    `  persisted ${fmt(rooms.perSecond)} messages/s; delivery p50 ${fmt(rooms.latency.p50)} ms, p99 ${fmt(rooms.latency.p99)} ms (${fmt(rooms.latency.p99 / relay.p99)}× relay p99; target ≤ 5)`,
    `  sockets that saw a reordering: ${rooms.reordered}`,
    cpuLine(rooms.cpu, fmt),
    d1Line(rooms),
    `  this pace offers at most ${Math.round(rooms.rooms * (1 / 2.2 + 1 / 0.45))} msg/s whatever the server can do; its capacity, flat out:`,
    `\n${flat.rooms} conversations flat out: each agent socket sends again as soon as it is acked (visitors are held to 30 a minute), ${fmt(flat.sendingSeconds)} s`,
    `  sent ${flat.sent}, acked ${flat.acked}, refused ${flat.refused}; D1 holds ${flatD1.n}; delivered to the other side ${flat.received}`,
    `  persisted ${fmt(flat.perSecond)} messages/s (target ≥ 2× floor: ${fmt(2 * room.floor.perSecond)}); delivery p50 ${fmt(flat.latency.p50)} ms, p99 ${fmt(flat.latency.p99)} ms`,
    `  sockets that saw a reordering: ${flat.reordered}`,
    cpuLine(flat.cpu, fmt),
    d1Line(flat),
  );
  out.push(
    `\nkilled mid-burst: ${kill.sent} socket messages into one conversation, wrangler dev and workerd SIGKILLed after ${kill.ackedBeforeKill} acks, restarted, the unacked sent again with their echo_id`,
    `  acked ${kill.acked}; D1 holds ${kill.rows}: acked but missing ${kill.lost}, with another id or seq than acked ${kill.wrong}, stored twice ${kill.duplicated}, seq gaps ${kill.gaps}; messages without exactly one message_created outbox row ${kill.outboxWrong}`,
  );
  const lostKill = kill.lost + kill.wrong + kill.duplicated + kill.gaps + kill.outboxWrong;
  const x = (v) => `${v.toFixed(1)}x`;
  // The lag target is for the bench's load: the paced rooms, not the flat-out capacity run.
  const lagP99 = Math.max(room.d1Lag.p99 ?? 0, rooms.d1Lag.p99 ?? 0);
  out.push(
    `\nrealtime summary: http p99/floor ${x(httpRatio)}; socket p99/relay ${x(socketRatio)}; socket ${Math.round(b.perSecond)} msg/s; rooms ${Math.round(flat.perSecond)} msg/s; floor ${Math.round(room.floor.perSecond)} req/s; d1 lag p99 ${Math.round(lagP99)} ms; d1 tx per 1000 msgs ${Math.round(rooms.d1Writes().perThousand)}; lost ${lostRoom + lostRooms + lostKill}; reordered ${room.reordered + rooms.reordered + flat.reordered}`,
  );
  process.stdout.write(`${out.join("\n")}\n`);
}
