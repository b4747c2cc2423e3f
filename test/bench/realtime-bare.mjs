// The realtime bench's third baseline: one conversation's sequential sends to the same 100
// listeners on a bare durable room (bare-room/worker.js), which only commits each frame to the
// room's SQLite, sends it to every socket and acks. It runs on the same wrangler dev and workerd
// as Parley, so what it costs is the platform's own, locally: the send to each socket and the
// storage commit (a disk sync on workerd's one thread). Parley's latency against it shows how
// much of the socket target's miss is Parley's code and how much the runtime's. Its sustained
// rate is not measured: with 128 sends in flight it swung between 360 and 1,900 msg/s from run
// to run (its groups, formed by one timer tick, are either large or single), so it made no floor.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { root } from "../../scripts/lib/wrangler.mjs";
import { startServer, stateRoot } from "./lib.mjs";
import {
  LATENCY_MESSAGES,
  LISTENERS,
  latency,
  listeners,
  sequentialSenders,
  WARMUP,
} from "./realtime-ws.mjs";

const config = path.join(root, "test", "bench", "bare-room", "wrangler.toml");

const created = (f) =>
  f.event === "message.created" ? { text: f.data.content, order: f.data.seq } : null;

/** Sequential socket latency to every listener. */
export async function measureBare(port) {
  const dir = path.join(stateRoot, "realtime-bare");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await startServer(dir, port, {}, { direct: true, config });
  try {
    const url = `${server.base.replace("http", "ws")}/room`;
    const l = await listeners(url, LISTENERS, created);
    // As many senders as Parley's step opens (its frame budget), so both fan out to as many.
    const one = await sequentialSenders(url, WARMUP + LATENCY_MESSAGES);
    const socket = await latency(one.send, l, "sock");
    one.close();
    const reordered = l.reordered();
    l.close();
    return { socket, reordered, direct: server.direct };
  } finally {
    await server.stop();
  }
}

/** The report's lines: the bare room's latency, and Parley's against it. */
export function bareLines(bare, room, relay, fmt) {
  const b = bare.socket;
  return [
    `  bare durable room → all         n=${b.n}  p50 ${fmt(b.p50)} ms  p99 ${fmt(b.p99)} ms  max ${fmt(b.max)} ms (test/bench/bare-room/: each frame committed to the room's SQLite, sent to every socket, acked; nothing else; reorderings ${bare.reordered})`,
    `  the runtime's share: the bare room's p99 is ${fmt(b.p99 / relay.p99)}× the relay's; Parley's socket p99 is ${fmt(room.socket.p99 / b.p99)}× the bare room's (target ≤ 3× relay: ${fmt(3 * relay.p99)} ms)`,
  ];
}
