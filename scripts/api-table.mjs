// The endpoint table of docs/api.md, from a running server's /openapi.json (`npm start` first):
//   node scripts/api-table.mjs [base] [--write]
// prints the table, or with --write (`npm run docs:api`) puts it between the doc's markers.
import { readFile, writeFile } from "node:fs/promises";
import { renderApiTable, withTable } from "./api-table-render.mjs";

const args = process.argv.slice(2);
const write = args.includes("--write");
const base =
  args.find((a) => !a.startsWith("--")) ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;

let doc;
try {
  doc = await (await fetch(`${base}/openapi.json`)).json();
} catch (err) {
  process.stderr.write(`No /openapi.json at ${base} (is \`npm start\` running?): ${err}\n`);
  process.exit(1);
}
const table = renderApiTable(doc);
if (write) {
  const file = new URL("../docs/api.md", import.meta.url);
  await writeFile(file, withTable(await readFile(file, "utf8"), table));
  process.stdout.write("docs/api.md: endpoint table rewritten\n");
} else {
  process.stdout.write(`${table}\n`);
}
