// Runs wrangler (from node_modules/.bin, so on the Node 22 of the `node` devDependency).
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = path.join(root, "node_modules", ".bin");
const wranglerBin = path.join(bin, "wrangler");

export const childEnv = {
  ...process.env,
  PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
  WRANGLER_SEND_METRICS: "false",
  // Wrangler asks before applying migrations when it thinks a person is watching.
  CI: process.env.CI ?? "true",
};

/** Runs wrangler to completion; throws with its output when it fails. */
export function wrangler(args) {
  const result = spawnSync(wranglerBin, args, { cwd: root, env: childEnv, encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`wrangler ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** Executes SQL on the DB binding and returns the rows of each statement. */
export function d1(sql, { remote = false } = {}) {
  const out = wrangler([
    "d1",
    "execute",
    "DB",
    remote ? "--remote" : "--local",
    "--json",
    "--command",
    sql,
  ]);
  const start = out.indexOf("[");
  return JSON.parse(out.slice(start)).map((statement) => statement.results ?? []);
}

export function applyMigrations({ remote = false } = {}) {
  return wrangler(["d1", "migrations", "apply", "DB", remote ? "--remote" : "--local"]);
}

/** Starts `wrangler dev` in the background, its output passed through. */
export function startDev(args) {
  return spawn(wranglerBin, ["dev", ...args], { cwd: root, env: childEnv, stdio: "inherit" });
}

/** SQL string literal. */
export const q = (value) => `'${String(value).replaceAll("'", "''")}'`;
