// Prints the README's endpoint table from a running server's /openapi.json:
//   node scripts/api-table.mjs http://127.0.0.1:8787 > /tmp/table.md
const base = process.argv[2] ?? "http://127.0.0.1:8787";
const doc = await (await fetch(`${base}/openapi.json`)).json();
const rows = [];
for (const [path, ops] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(ops)) {
    const codes = Object.keys(op.responses ?? {}).join(" ");
    rows.push(`| \`${method.toUpperCase()}\` | \`${path}\` | ${op.summary ?? ""} | ${codes} |`);
  }
}
process.stdout.write(
  `${["| method | path | what | statuses |", "|---|---|---|---|", ...rows].join("\n")}\n`,
);
