// Which operations of Chatwoot's OpenAPI file a running Parley answers (`npm start` first):
//   node scripts/swagger-coverage.mjs <chatwoot-swagger.json> [base]
// Paths are compared with their parameters renamed to {}; Parley's /openapi.json lists the
// routes by their Hono paths, so `/conversations/` (a trailing slash) counts as `/conversations`.
import { readFile } from "node:fs/promises";

const [file, baseArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write("usage: node scripts/swagger-coverage.mjs <chatwoot-swagger.json> [base]\n");
  process.exit(2);
}
const base = baseArg ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;
const METHODS = ["get", "post", "put", "patch", "delete"];
const shape = (path) => path.replace(/\{[^}]+\}/g, "{}").replace(/(.)\/$/, "$1");
const operations = (doc) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => METHODS.includes(m))
      .map((m) => ({
        key: `${m.toUpperCase()} ${shape(path)}`,
        label: `${m.toUpperCase()} ${path}`,
      })),
  );

const swagger = JSON.parse(await readFile(file, "utf8"));
const parley = await (await fetch(`${base}/openapi.json`)).json();
const ours = new Set(operations(parley).map((o) => o.key));
// Parley serves PUT and PATCH alike where Chatwoot's routes do (Rails `resources`).
const answered = (key) => ours.has(key) || ours.has(key.replace(/^PUT /, "PATCH "));
const all = operations(swagger);
const missing = all.filter((o) => !answered(o.key));
process.stdout.write(`${all.length - missing.length} of ${all.length} operations answered\n`);
for (const o of missing) {
  process.stdout.write(`missing: ${o.label}\n`);
}
