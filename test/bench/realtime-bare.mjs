// The realtime bench's third baseline: one conversation's load (the same 100 listeners, the same
// sequential sends and sustained burst) on a bare durable room (bare-room/worker.js), which only
// commits each frame to the room's SQLite, sends it to every socket and acks. It runs on the same
// wrangler dev and workerd as Parley, so what it costs is the platform's own, locally: the send
// to each socket and the storage commit (a disk sync on workerd's one thread). Parley's figures
// against it show how much of a missed target is Parley's code and how much the runtime's.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { root } from "../../scripts/lib/wrangler.mjs";
import { startServer, stateRoot } from "./lib.mjs";
import { watchCpu } from "./realtime-cpu.mjs";
import { LISTENERS, latency, listeners, sender, socketBurst } from "./realtime-ws.mjs";

const config = path.join(root, "test", "bench", "bare-room", "wrangler.toml");

const created = (f) =>
  f.event === "message.created" ? { text: f.data.content, order: f.data.seq } : null;

/** Sequential socket latency to every listener, then the sustained burst with its CPU. */
export async function measureBare(port) {
  const dir = path.join(stateRoot, "realtime-bare");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await startServer(dir, port, {}, { direct: true, config });
  try {
    const url = `${server.base.replace("http", "ws")}/room`;
    const l = await listeners(url, LISTENERS, created);
    const one = await sender(url);
    const socket = await latency((text) => one.send(text), l, "sock");
    one.close();
    const cpu = watchCpu(server);
    const burst = await socketBurst(url, l);
    burst.cpu = cpu.stop(burst.messages);
    const reordered = l.reordered();
    l.close();
    return { socket, burst, reordered, direct: server.direct };
  } finally {
    await server.stop();
  }
}

/** The report's lines: the bare room's figures, and Parley's against them. */
export function bareLines(bare, room, relay, floor, fmt) {
  const b = bare.burst;
  return [
    `\nbare durable room (test/bench/bare-room/: each frame committed to the room's SQLite, sent to every socket, acked; nothing else), the same ${LISTENERS} listeners and load`,
    `  socket send → all listeners   n=${bare.socket.n}  p50 ${fmt(bare.socket.p50)} ms  p99 ${fmt(bare.socket.p99)} ms  max ${fmt(bare.socket.max)} ms (p99 ${fmt(bare.socket.p99 / relay.p99)}× relay)`,
    `  sustained ${fmt(b.perSecond)} messages/s (${fmt(b.perSecond / floor.perSecond)}× floor), server CPU ${fmt(b.cpu?.perMessage ?? Number.NaN)} ms per message; fewest received ${b.minReceived}/${b.messages}; reorderings ${bare.reordered}`,
    `  Parley against it: socket p99 ${fmt(room.socket.p99 / bare.socket.p99)}×, sustained ${fmt(room.burst.perSecond / b.perSecond)}× (the targets ask ${fmt(3 * relay.p99)} ms and ${fmt(2 * floor.perSecond)} msg/s of Parley: the bare room's own p99 ${fmt(bare.socket.p99 / relay.p99)}× relay and rate ${fmt(b.perSecond / floor.perSecond)}× floor show the runtime's share)`,
  ];
}
