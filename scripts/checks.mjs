// `npm test`'s checks before the suites: the named npm scripts run side by side (tsc is one
// core's work, the builds and the bundle another's), each one's output printed whole when it
// ends, with its time, so a CI log says where the minutes went. Fails if any check fails.
//   node scripts/checks.mjs build:widget typecheck lint deps size
import { spawn } from "node:child_process";

const names = process.argv.slice(2);
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const since = Date.now();
        const child = spawn("npm", ["run", "--silent", name], {
          stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout.on("data", (d) => {
          output += d;
        });
        child.stderr.on("data", (d) => {
          output += d;
        });
        child.on("close", (code) => {
          const ok = code === 0;
          process.stdout.write(
            `\n> ${name}: ${ok ? "ok" : `FAILED (exit ${code})`} in ${seconds(since)}\n`,
          );
          process.stdout.write(output.trimEnd() ? `${output.trimEnd()}\n` : "");
          resolve(ok);
        });
      }),
  ),
);
console.log(`\nchecks: ${names.join(", ")} in ${seconds(started)}`);
process.exit(results.every(Boolean) ? 0 : 1);
