// `npm run lock:platforms`: after `npm install`, records the other platforms' optional binaries
// (workerd, biome, esbuild…) in package-lock.json when the registry mirror in use lacks them,
// so that `npm ci` accepts the lockfile. The entries carry os/cpu, so npm never fetches them
// on a machine they don't fit.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "./lib/wrangler.mjs";

const file = path.join(root, "package-lock.json");
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;

function platformOf(name) {
  const os =
    [
      "darwin",
      "linux",
      "win32",
      "android",
      "freebsd",
      "openbsd",
      "netbsd",
      "sunos",
      "aix",
      "openharmony",
    ].find((o) => name.includes(o)) ?? (name.includes("windows") ? "win32" : undefined);
  const cpu =
    [
      "arm64",
      "x64",
      "ia32",
      "arm",
      "ppc64",
      "s390x",
      "riscv64",
      "loong64",
      "mips64el",
      "wasm32",
    ].find((c) => new RegExp(`[-_]${c}(\\b|-|$)`).test(name)) ??
    (/-64$/.test(name) ? "x64" : undefined);
  return { os, cpu, musl: name.includes("musl") };
}

let added = 0;
for (const [where, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = where ? `${where}/node_modules/${dep}` : `node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[base] || packages[hoisted]) {
      continue;
    }
    const { os, cpu, musl } = platformOf(dep);
    if (!os || (os === "linux" && !musl)) {
      continue; // only fill in binaries for other platforms
    }
    packages[where ? base : hoisted] = {
      version,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(entry.dev ? { dev: true } : {}),
      ...(musl ? { libc: ["musl"] } : {}),
      optional: true,
      os: [os],
    };
    added++;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`added ${added} platform entries to package-lock.json\n`);
