// The Worker's bundle as `wrangler deploy` would upload it (built with --dry-run, no account
// needed). `node scripts/bundle-size.mjs` prints it and fails over the budget (npm test runs
// it); the benchmarks import measureBundle() to print the figure.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Issue 11: the Worker stays under 800 KiB (it was 1.66 MB before minifying and zod's locales). */
export const BUDGET_BYTES = 800 * 1024;

export function measureBundle() {
  const outdir = mkdtempSync(path.join(tmpdir(), "parley-bundle-"));
  // wrangler wants the assets directory to exist; the widget's files are not part of the Worker.
  mkdirSync(path.join(root, "widget", "dist"), { recursive: true });
  try {
    const run = spawnSync(
      path.join(root, "node_modules", ".bin", "wrangler"),
      ["deploy", "--dry-run", "--outdir", outdir],
      { cwd: root, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    if (run.status !== 0) {
      throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}\n${run.stderr}`);
    }
    // What is uploaded: the modules, not their source maps.
    const modules = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f));
    const bytes = modules.map((f) => readFileSync(path.join(outdir, f)));
    return {
      bytes: bytes.reduce((n, b) => n + b.length, 0),
      gzipBytes: bytes.reduce((n, b) => n + gzipSync(b).length, 0),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

export const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { bytes, gzipBytes } = measureBundle();
  const line = `worker bundle: ${kib(bytes)} (gzip ${kib(gzipBytes)}), budget ${kib(BUDGET_BYTES)}`;
  if (bytes > BUDGET_BYTES) {
    process.stderr.write(`${line}: OVER BUDGET\n`);
    process.exit(1);
  }
  process.stdout.write(`${line}\n`);
}
