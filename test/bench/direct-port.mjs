// The Worker's own port under `wrangler dev`, past its reload proxy. Wrangler dev runs two
// workerd processes: a proxy (the port it is given; it holds requests while the Worker reloads
// and injects the live-reload script) that forwards every request and every WebSocket frame over
// loopback to a second workerd that runs the Worker. A deployed Worker has no such hop, and the
// relay the realtime bench compares with has none either: the realtime benches measure the
// Worker, and its floor, on the second process's port. Linux only (/proc); null elsewhere.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { processes, treeOf } from "./realtime-cpu.mjs";

/** Loopback TCP ports listened on, by socket inode (/proc/net/tcp, state 0A). */
function listening() {
  const ports = new Map();
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[3] === "0A") {
      ports.set(f[9], Number.parseInt(f[1].split(":")[1], 16));
    }
  }
  return ports;
}

/** The ports the processes under `pid` listen on, but `except`. */
function portsUnder(pid, except) {
  const inodes = listening();
  const out = new Set();
  for (const p of treeOf(pid, processes())) {
    let fds = [];
    try {
      fds = readdirSync(`/proc/${p}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${p}/fd/${fd}`))?.[1];
        const port = inode && inodes.get(inode);
        if (port && port !== except) {
          out.add(port);
        }
      } catch {
        // closed meanwhile
      }
    }
  }
  return [...out];
}

/**
 * The base URL that reaches the Worker past the proxy: the port under `pid` (not `port`) that
 * answers /openapi.json with the API's document. Null when none does (or off Linux).
 */
export async function directBase(pid, port) {
  let candidates = [];
  try {
    candidates = portsUnder(pid, port);
  } catch {
    return null;
  }
  for (const p of candidates) {
    try {
      const res = await fetch(`http://127.0.0.1:${p}/openapi.json`, {
        signal: AbortSignal.timeout(2000),
      });
      if (res.ok && (await res.json()).openapi) {
        return `http://127.0.0.1:${p}`;
      }
    } catch {
      // not an HTTP port of the Worker
    }
  }
  return null;
}
