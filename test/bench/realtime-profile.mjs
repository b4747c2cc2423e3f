// `node test/bench/realtime-profile.mjs [socket|http|burst|rooms]`: where the server's CPU goes on the
// realtime path. Starts `wrangler dev` with its V8 inspector, takes a CPU profile over the
// DevTools protocol (Profiler.start/stop) while the load runs (socket, http: 300 sequential
// sends into one conversation with 100 listeners over a socket or HTTP; burst: the realtime
// bench's sustained step; rooms: the 200-room load of the realtime bench, paced, or flat out
// with BENCH_FLAT=1), and prints the self time by source file and the heaviest functions, with
// their total (self + callees) time. BENCH_TAIL_MS keeps profiling that long after the load (what
// it set off behind its acks). The profile and the bundle it refers to are kept as
// /tmp/realtime-<load>.cpuprofile and .bundle.js. Not part of `npm run bench`: a tool for finding
// what to cut.
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "../../scripts/lib/wrangler.mjs";
import { inspect } from "./inspector.mjs";
import { freshDatabase, startServer } from "./lib.mjs";
import { SEED } from "./realtime.mjs";
import { measureRooms } from "./realtime-rooms.mjs";
import { listeners, sequentialSenders, socketBurst } from "./realtime-ws.mjs";

const TOKEN = "benchRealtimeToken000001";
const which = process.argv[2] ?? "socket";
const INSPECTOR = 9339;
/** Sequential sends of the socket and http loads. */
const SENDS = 300;

/**
 * The source file of each line of the running bundle (unminified, esbuild marks each module with
 * a `// path` comment), read while wrangler dev runs: its bundle is gone once it stops.
 */
function bundleFiles() {
  const tmp = path.join(root, ".wrangler", "tmp");
  const [newest] = readdirSync(tmp)
    .filter((d) => d.startsWith("dev-"))
    .map((d) => path.join(tmp, d, "index.js"))
    .filter((f) => {
      try {
        return statSync(f).isFile();
      } catch {
        return false;
      }
    })
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  // Kept beside the profile: the bundle is gone once wrangler dev stops.
  copyFileSync(newest, `/tmp/realtime-${which}.bundle.js`);
  const marks = [];
  readFileSync(newest, "utf8")
    .split("\n")
    .forEach((line, i) => {
      const m = /^\/\/ ((?:worker|node_modules|\.\.)\/\S+)$/.exec(line);
      if (m) {
        marks.push([i, m[1].replace(/^node_modules\//, "npm:")]);
      }
    });
  return (line) => {
    let found = "(bundle)";
    for (const [at, file] of marks) {
      if (at > line) {
        break;
      }
      found = file;
    }
    return found;
  };
}

/** Self and total time per function and self time per file, from a V8 CPU profile. */
function report(profile, sourceOf) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Each sample counts the same: with the machine's cores busy the sampler falls behind, and a
  // sample's own delta (the gap since the last one, up to 100 ms) would land on whatever ran
  // when it finally fired. Counts spread over the profiled time stay proportional.
  const span = profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000;
  const each = span / Math.max(1, profile.samples.length);
  const dt = new Map();
  for (const s of profile.samples) {
    dt.set(s, (dt.get(s) ?? 0) + each);
  }
  const parent = new Map();
  for (const n of profile.nodes) {
    for (const c of n.children ?? []) {
      parent.set(c, n.id);
    }
  }
  const name = (n) => {
    const f = n.callFrame;
    const file = f.url === "index.js" ? sourceOf(f.lineNumber) : f.url || "(native)";
    return `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
  };
  const fileOf = (n) =>
    n.callFrame.url === "index.js"
      ? sourceOf(n.callFrame.lineNumber)
      : n.callFrame.url || `(${n.callFrame.functionName || "native"})`;
  const self = new Map();
  const total = new Map();
  const files = new Map();
  let all = 0;
  for (const [id, ms] of dt) {
    const n = byId.get(id);
    all += ms;
    self.set(name(n), (self.get(name(n)) ?? 0) + ms);
    files.set(fileOf(n), (files.get(fileOf(n)) ?? 0) + ms);
    // Total: once per function per stack (recursion counted once).
    const seen = new Set();
    for (let p = id; p !== undefined; p = parent.get(p)) {
      const k = name(byId.get(p));
      if (!seen.has(k)) {
        seen.add(k);
        total.set(k, (total.get(k) ?? 0) + ms);
      }
    }
  }
  const top = (m, k) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(
        ([n, ms]) =>
          `  ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / all).toFixed(1).padStart(5)}%  ${n}`,
      )
      .join("\n");
  return [
    `profiled ${all.toFixed(0)} ms of samples`,
    "self time by file:",
    top(files, 30),
    "self time by function:",
    top(self, 40),
    "total time by function:",
    top(total, 80),
  ].join("\n");
}

async function socketLoad(base) {
  const url = `${base.replace("http", "ws")}/api/v1/accounts/1/conversations/1/live?batch=1&api_access_token=${TOKEN}`;
  const l = await listeners(url, 100, (f) =>
    f.event === "message.created" ? { text: f.data.content, order: f.data.seq } : null,
  );
  const one = await sequentialSenders(url, 30 + SENDS);
  for (let i = 0; i < 30; i++) {
    await one.send(`warm-${i}`);
    await l.waitAll(`warm-${i}`);
  }
  const post = async (content) => {
    const res = await fetch(`${base}/api/v1/accounts/1/conversations/1/messages`, {
      method: "POST",
      headers: { api_access_token: TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ content }),
    });
    await res.arrayBuffer();
  };
  const runs = {
    // 300 sequential sends, each awaited by all 100 listeners.
    socket: async () => {
      for (let i = 0; i < SENDS; i++) {
        await one.send(`sock-${i}`);
        await l.waitAll(`sock-${i}`);
      }
    },
    // The same over HTTP.
    http: async () => {
      for (let i = 0; i < SENDS; i++) {
        await post(`http-${i}`);
        await l.waitAll(`http-${i}`);
      }
    },
    // The realtime bench's sustained step: 16 sockets, 8 in flight each, 3,000 messages.
    burst: () => socketBurst(url, l),
  };
  return {
    run: runs[which],
    close: () => {
      one.close();
      l.close();
    },
  };
}

const args = ["--inspector-port", String(INSPECTOR), "--minify=false"];
let profile;
let sourceOf;
if (which === "rooms") {
  let session;
  await measureRooms(
    8973,
    {
      args,
      sending: async () => {
        session = await inspect(INSPECTOR);
        await session.call("Profiler.enable");
        await session.call("Profiler.setSamplingInterval", { interval: 200 });
        await session.call("Profiler.start");
      },
      sent: async () => {
        profile = (await session.call("Profiler.stop")).profile;
        sourceOf = bundleFiles();
        session.close();
      },
    },
    { flatOut: process.env.BENCH_FLAT === "1" },
  );
} else {
  const { dir } = freshDatabase("realtime-profile", SEED);
  const server = await startServer(dir, 8972, {}, { args, direct: true });
  try {
    const load = await socketLoad(server.base);
    const session = await inspect(INSPECTOR);
    await session.call("Profiler.enable");
    await session.call("Profiler.setSamplingInterval", { interval: 200 });
    await session.call("Profiler.start");
    const t0 = performance.now();
    await load.run();
    const ms = performance.now() - t0;
    // What the load set off behind its acks (the queue consumer waits up to a second for a batch).
    await new Promise((r) => setTimeout(r, Number(process.env.BENCH_TAIL_MS ?? 0)));
    profile = (await session.call("Profiler.stop")).profile;
    sourceOf = bundleFiles();
    process.stdout.write(`${which}: load ran ${ms.toFixed(0)} ms\n`);
    session.close();
    load.close();
  } finally {
    await server.stop();
  }
}
writeFileSync(`/tmp/realtime-${which}.cpuprofile`, JSON.stringify(profile));
process.stdout.write(`${report(profile, sourceOf)}\n`);
