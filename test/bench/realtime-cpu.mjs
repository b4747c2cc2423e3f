// The server's CPU while the realtime bench's load runs: every process under `wrangler dev`
// (workerd runs the Worker, every room, the writer and D1), read from /proc (Linux). Shows which
// side holds a missed target: the server's CPU per message (what one core allows at most), and
// how busy it was (well under one core with a backlog: the machine, other processes, waits).
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ 100

/** Every process now: its parent and its CPU ticks (user + system). */
export function processes() {
  const out = new Map();
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(pid), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The pids of `root` and every process under it, in `procs` (processes()). */
export function treeOf(root, procs) {
  const under = new Set([root]);
  // Parents come before children often but not always: repeat until nothing is added.
  for (let added = true; added; ) {
    added = false;
    for (const [pid, p] of procs) {
      if (!under.has(pid) && under.has(p.ppid)) {
        under.add(pid);
        added = true;
      }
    }
  }
  return under;
}

/** CPU ticks of `root` and all its descendants now; null off Linux. */
function treeTicks(root) {
  let procs;
  try {
    procs = processes();
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of treeOf(root, procs)) {
    total += procs.get(pid)?.ticks ?? 0;
  }
  return total;
}

/** Starts measuring the server's CPU; `stop(messages)` → ms per message and share of a core. */
export function watchCpu(server) {
  const t0 = performance.now();
  const c0 = server.pid ? treeTicks(server.pid) : null;
  return {
    stop(messages) {
      const c1 = server.pid ? treeTicks(server.pid) : null;
      if (c0 === null || c1 === null) {
        return null;
      }
      const cpuMs = (c1 - c0) * TICK_MS;
      return { perMessage: cpuMs / Math.max(1, messages), busy: cpuMs / (performance.now() - t0) };
    },
  };
}

/** One line for the bench's report. */
export const cpuLine = (cpu, fmt) =>
  cpu
    ? `  server CPU (wrangler dev and workerd): ${fmt(cpu.perMessage)} ms per message, so one core allows ${fmt(1000 / cpu.perMessage)} msg/s at most; ${fmt(100 * cpu.busy)}% of a core in use (well under 100% with senders waiting: the machine or waits hold it, not the server's CPU)`
    : "  server CPU: not measured (no /proc)";
