// Shared benchmark plumbing: a real `wrangler dev` (workerd + local D1) on its own state dir.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { childEnv, root } from "../../scripts/lib/wrangler.mjs";
import { directBase } from "./direct-port.mjs";

const wranglerBin = path.join(root, "node_modules", ".bin", "wrangler");
/**
 * Where the benches' databases live. Locally each storage commit of D1 or a Durable Object is a
 * disk sync on workerd's one thread, which nothing else runs beside; BENCH_STATE_ROOT (e.g. a
 * tmpfs, /dev/shm/parley-bench) shows how much of a figure those syncs are. On disk by default.
 */
export const stateRoot = process.env.BENCH_STATE_ROOT
  ? path.resolve(process.env.BENCH_STATE_ROOT)
  : path.join(root, ".wrangler", "bench");

/**
 * The measured server's environment. Wrangler dev's local observability (on by default since
 * wrangler 4.1xx) streams every invocation's trace to a collector worker in the same workerd,
 * which writes it to disk: about 1.5 ms of CPU per socket message with 200 busy rooms, half of
 * the server's, spent on dev tooling a deployed Worker does not run. Off for every server the
 * benches and the browser tests start (the floor's too, so the ratios compare like with like);
 * X_LOCAL_OBSERVABILITY=true measures with it.
 */
const serverEnv = {
  ...childEnv,
  X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? "false",
};

function run(args) {
  const r = spawnSync(wranglerBin, args, {
    cwd: root,
    env: childEnv,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) {
    throw new Error(`wrangler ${args.slice(0, 3).join(" ")} failed:\n${r.stderr || r.stdout}`);
  }
  return r.stdout;
}

/** A fresh local database under .wrangler/bench/<name>, migrated and seeded with `sql`. */
export function freshDatabase(name, sql) {
  const dir = path.join(stateRoot, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run(["d1", "migrations", "apply", "DB", "--local", "--persist-to", dir]);
  const file = path.join(dir, "seed.sql");
  writeFileSync(file, sql);
  const started = performance.now();
  run(["d1", "execute", "DB", "--local", "--persist-to", dir, "--file", file]);
  return { dir, seedSeconds: (performance.now() - started) / 1000 };
}

/**
 * Starts wrangler dev on `dir` and resolves once /openapi.json answers. With `killable`, it runs
 * in a process group of its own and `kill()` ends it at once with SIGKILL, workerd and all, as a
 * crash would. `args`: more wrangler dev flags (e.g. --test-scheduled). With `direct`, `base` is
 * the Worker's own port past wrangler dev's reload proxy (direct-port.mjs; `direct` says whether
 * it was found), unless BENCH_VIA_PROXY is set. `config`: another Worker's wrangler.toml than
 * Parley's (it must answer /openapi.json with an `openapi` field).
 */
export async function startServer(
  dir,
  port,
  vars = {},
  { killable = false, args = [], direct = false, config } = {},
) {
  const base = `http://127.0.0.1:${port}`;
  // Mailed links are built on PUBLIC_URL only (never the request's Host): this server's own.
  const varArgs = Object.entries({ PUBLIC_URL: base, ...vars }).flatMap(([k, v]) => [
    "--var",
    `${k}:${v}`,
  ]);
  const child = spawn(
    wranglerBin,
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      dir,
      "--log-level",
      "error",
      ...(config ? ["--config", config] : []),
      ...varArgs,
      ...args,
    ],
    { cwd: root, env: serverEnv, stdio: ["ignore", "ignore", "inherit"], detached: killable },
  );
  const kill = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) {
        resolve();
        return;
      }
      child.once("exit", () => resolve());
      process.kill(killable ? -child.pid : child.pid, "SIGKILL");
    });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/openapi.json`)).ok) {
        const past =
          direct && !process.env.BENCH_VIA_PROXY ? await directBase(child.pid, port) : null;
        return {
          base: past ?? base,
          direct: past !== null,
          pid: child.pid,
          stop: () => stopChild(child),
          kill,
        };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  stopChild(child);
  throw new Error(`wrangler dev on ${dir} did not become ready`);
}

/** SIGTERM, and SIGKILL if the server is still busy 10 s later (a flooded local queue can be). */
function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve();
      return;
    }
    const hard = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export function percentile(sorted, p) {
  if (sorted.length === 0) {
    return Number.NaN;
  }
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

/**
 * Times `n` sequential calls of `fn` after `warmup` untimed ones; `fn` must throw on a wrong
 * answer so a fast failure never counts as a fast success.
 */
export async function measure(fn, { n = 200, warmup = 20 } = {}) {
  for (let i = 0; i < warmup; i++) {
    await fn(i);
  }
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { n, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}

export async function getJson(url, token, init = {}) {
  const res = await fetch(url, {
    ...init,
    headers: { api_access_token: token, "content-type": "application/json", ...init.headers },
  });
  if (!res.ok) {
    throw new Error(`${init.method ?? "GET"} ${url} → ${res.status} ${await res.text()}`);
  }
  return res.json();
}

export const fmt = (ms) => (Number.isFinite(ms) ? ms.toFixed(2) : "n/a");

export function printTable(title, rows) {
  process.stdout.write(`\n${title}\n`);
  const header = ["case", "n", "p50 ms", "p95 ms", "p99 ms"];
  const lines = rows.map((r) => [r.name, String(r.n), fmt(r.p50), fmt(r.p95), fmt(r.p99)]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  process.stdout.write(`${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n`);
  for (const l of lines) {
    process.stdout.write(`${line(l)}\n`);
  }
}
