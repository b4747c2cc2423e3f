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

/**
 * Issue 11 brought the Worker from 1.66 MB to under 800 KiB; almost all of the excess was
 * dependencies (zod alone 764 KB with its locales). Its features have since grown the Worker's
 * own code (460 KiB of 801 at the end of session 6), so the budget is two numbers: the
 * dependencies' share, held tight so that regression cannot come back, and the whole upload,
 * far below Cloudflare's limits (3 MB gzip on the free plan) so startup stays cheap.
 */
export const BUDGET_BYTES = 1024 * 1024;
// 295 KiB since zod's compiler and JSON Schema import were aliased away (341 before): held at
// 320 so that losing the alias shows.
export const DEPENDENCY_BUDGET_BYTES = 320 * 1024;

export function measureBundle() {
  const outdir = mkdtempSync(path.join(tmpdir(), "parley-bundle-"));
  // wrangler wants the assets directory to exist; the widget's files are not part of the Worker.
  mkdirSync(path.join(root, "widget", "dist"), { recursive: true });
  try {
    const run = spawnSync(
      path.join(root, "node_modules", ".bin", "wrangler"),
      ["deploy", "--dry-run", "--outdir", outdir, "--metafile", path.join(outdir, "meta.json")],
      { cwd: root, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    if (run.status !== 0) {
      throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}\n${run.stderr}`);
    }
    // What is uploaded: the modules, not their source maps.
    const modules = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f));
    const bytes = modules.map((f) => readFileSync(path.join(outdir, f)));
    const meta = JSON.parse(readFileSync(path.join(outdir, "meta.json"), "utf8"));
    checkAliases(meta);
    return {
      bytes: bytes.reduce((n, b) => n + b.length, 0),
      gzipBytes: bytes.reduce((n, b) => n + gzipSync(b).length, 0),
      dependencyBytes: dependencyShare(meta),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * wrangler.toml's [alias] swaps zod's never-called parts for worker/lib/zod-*.ts by their
 * relative import paths ("./compile.js"), which any module could use: only zod's may be swapped.
 */
function checkAliases(meta) {
  const targets = /worker\/lib\/zod-(locales|unbundled)\.ts$/;
  for (const [file, input] of Object.entries(meta.inputs)) {
    for (const i of input.imports ?? []) {
      if (targets.test(i.path) && !file.includes("node_modules/zod/")) {
        throw new Error(`${file} imports ${i.original}, which wrangler.toml aliases to ${i.path}`);
      }
    }
  }
}

/** Bytes that node_modules contribute to the minified output (esbuild's metafile). */
function dependencyShare(meta) {
  let total = 0;
  for (const output of Object.values(meta.outputs)) {
    for (const [file, input] of Object.entries(output.inputs ?? {})) {
      if (file.includes("node_modules/")) {
        total += input.bytesInOutput;
      }
    }
  }
  return total;
}

export const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { bytes, gzipBytes, dependencyBytes } = measureBundle();
  const line =
    `worker bundle: ${kib(bytes)} (gzip ${kib(gzipBytes)}), budget ${kib(BUDGET_BYTES)}; ` +
    `dependencies ${kib(dependencyBytes)}, budget ${kib(DEPENDENCY_BUDGET_BYTES)}`;
  if (bytes > BUDGET_BYTES || dependencyBytes > DEPENDENCY_BUDGET_BYTES) {
    process.stderr.write(`${line}: OVER BUDGET\n`);
    process.exit(1);
  }
  process.stdout.write(`${line}\n`);
}
