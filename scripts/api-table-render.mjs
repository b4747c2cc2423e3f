// The endpoint table of docs/api.md, rendered from /openapi.json. Pure, so the script that
// rewrites the doc and the contract test that checks it share one rendering.

export const BEGIN = "<!-- api-table:begin (generated from /openapi.json: npm run docs:api) -->";
export const END = "<!-- api-table:end -->";

/** One markdown row per operation, in the document's order. */
export function renderApiTable(doc) {
  const rows = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const codes = Object.keys(op.responses ?? {}).join(" ");
      rows.push(`| \`${method.toUpperCase()}\` | \`${path}\` | ${op.summary ?? ""} | ${codes} |`);
    }
  }
  return ["| method | path | what | statuses |", "|---|---|---|---|", ...rows].join("\n");
}

function markers(markdown) {
  const begin = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (begin < 0 || end < begin) {
    throw new Error(`the endpoint table's markers are missing: ${BEGIN} … ${END}`);
  }
  return { from: begin + BEGIN.length, to: end };
}

/** The table between the markers, without the surrounding blank lines. */
export function tableIn(markdown) {
  const { from, to } = markers(markdown);
  return markdown.slice(from, to).trim();
}

/** `markdown` with the table between the markers replaced by `table`. */
export function withTable(markdown, table) {
  const { from, to } = markers(markdown);
  return `${markdown.slice(0, from)}\n\n${table}\n\n${markdown.slice(to)}`;
}
