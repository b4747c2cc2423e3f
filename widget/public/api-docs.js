// The API reference at /docs: renders /openapi.json with no third-party code (the page's CSP
// allows scripts, styles and fetches from its own origin only). Text goes in as textContent.
const METHODS = ["get", "post", "put", "patch", "delete"];
const main = document.getElementById("reference");
const status = document.getElementById("status");
const filter = document.getElementById("filter");

const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "text") {
      node.textContent = value;
    } else {
      node.setAttribute(key, value);
    }
  }
  for (const child of children) {
    if (child) {
      node.append(child);
    }
  }
  return node;
};

/** A schema in one line: its component name, type, or the shape of its items / variants. */
function describe(schema) {
  if (!schema) {
    return "";
  }
  if (schema.$ref) {
    return schema.$ref.split("/").pop();
  }
  if (schema.type === "array") {
    return `${describe(schema.items)}[]`;
  }
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) {
    return variants.map(describe).join(" | ");
  }
  if (schema.enum) {
    return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  return schema.format ? `${type} (${schema.format})` : type;
}

function parameters(list) {
  if (!list?.length) {
    return null;
  }
  const body = el("tbody");
  for (const p of list) {
    body.append(
      el(
        "tr",
        {},
        el("td", {}, el("code", { text: p.name })),
        el("td", { text: p.in }),
        el("td", { text: describe(p.schema) }),
        el("td", { text: p.required ? "yes" : "no" }),
        el("td", { text: p.description ?? "" }),
      ),
    );
  }
  const head = el("tr");
  for (const h of ["name", "in", "type", "required", "description"]) {
    head.append(el("th", { scope: "col", text: h }));
  }
  return el("table", {}, el("caption", { text: "Parameters" }), el("thead", {}, head), body);
}

function content(title, media) {
  const entries = Object.entries(media ?? {});
  if (entries.length === 0) {
    return null;
  }
  const list = el("ul");
  for (const [type, { schema }] of entries) {
    list.append(el("li", {}, el("code", { text: type }), ` ${describe(schema)}`));
  }
  return el("div", {}, el("h4", { text: title }), list);
}

function responses(map) {
  const list = el("dl");
  for (const [code, r] of Object.entries(map ?? {})) {
    const schemas = Object.values(r.content ?? {}).map((m) => describe(m.schema));
    list.append(
      el("dt", {}, el("code", { text: code })),
      el("dd", { text: [r.description, ...schemas].filter(Boolean).join(" — ") }),
    );
  }
  return el("div", {}, el("h4", { text: "Responses" }), list);
}

function operation(path, method, op) {
  const summary = el(
    "summary",
    {},
    el("span", { class: `method ${method}`, text: method.toUpperCase() }),
    " ",
    el("code", { text: path }),
    op.summary ? ` ${op.summary}` : "",
  );
  const details = el("details", { "data-search": `${method} ${path} ${op.summary ?? ""}` });
  details.append(
    summary,
    op.description ? el("p", { text: op.description }) : null,
    op.security?.length
      ? el("p", { text: `Auth: ${op.security.flatMap(Object.keys).join(", ")}` })
      : null,
    parameters(op.parameters),
    content("Request body", op.requestBody?.content),
    responses(op.responses),
  );
  return details;
}

function render(doc) {
  document.title = `${doc.info?.title ?? "API"} reference`;
  document.getElementById("title").textContent =
    `${doc.info?.title ?? "API"} ${doc.info?.version ?? ""}`.trim();
  const groups = new Map();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) {
        const tag = op.tags?.[0] ?? "Other";
        groups.set(tag, [...(groups.get(tag) ?? []), operation(path, method, op)]);
      }
    }
  }
  for (const [tag, ops] of groups) {
    main.append(el("section", {}, el("h2", { text: tag }), ...ops));
  }
  const schemas = doc.components?.schemas ?? {};
  if (Object.keys(schemas).length > 0) {
    const section = el("section", {}, el("h2", { text: "Schemas" }));
    for (const [name, schema] of Object.entries(schemas)) {
      section.append(
        el(
          "details",
          { id: `schema-${name}`, "data-search": name },
          el("summary", {}, el("code", { text: name })),
          el("pre", { text: JSON.stringify(schema, null, 2) }),
        ),
      );
    }
    main.append(section);
  }
  status.textContent = "";
}

filter.addEventListener("input", () => {
  const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
  for (const item of main.querySelectorAll("details[data-search]")) {
    const text = item.dataset.search.toLowerCase();
    item.hidden = !words.every((w) => text.includes(w));
  }
});

fetch("/openapi.json")
  .then((res) => {
    if (!res.ok) {
      throw new Error(`HTTP ${res.status}`);
    }
    return res.json();
  })
  .then(render)
  .catch((err) => {
    status.textContent = `Could not load /openapi.json: ${err.message}`;
  });
