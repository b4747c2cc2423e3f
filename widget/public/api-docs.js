// The API reference at /docs: renders /openapi.json with no third-party code (the page's CSP
// allows scripts, styles and fetches from its own origin only). Text goes in as textContent.
// An operation's or a schema's body is built when it is first opened: 160 operations stay cheap.
const METHODS = ["get", "post", "put", "patch", "delete"];
const main = document.getElementById("reference");
const status = document.getElementById("status");
const filter = document.getElementById("filter");
const toc = document.getElementById("toc");
/** The local demo's facts, rendered by the server into the intro (only under npm start). */
const demo = document.getElementById("demo")?.dataset ?? {};
const ORIGIN = window.location.origin;
let schemas = {};

const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "text") {
      node.textContent = value;
    } else {
      node.setAttribute(key, value);
    }
  }
  // Only nodes and strings: a missing part is left out, never printed as "null".
  node.append(...children.filter((c) => typeof c === "string" || c instanceof Node));
  return node;
};

const refName = (schema) => schema?.$ref?.split("/").pop();
const resolve = (schema) => (schema?.$ref ? schemas[refName(schema)] : schema) ?? {};
const isNullType = (s) => s?.type === "null" || (s?.enum?.length === 1 && s.enum[0] === null);
const variantsOf = (s) => (s.oneOf ?? s.anyOf ?? []).filter((v) => !isNullType(v));

/** Whether a value may be null: a `null` type, variant or enum member. */
function nullable(schema) {
  const s = schema ?? {};
  return Boolean(
    (Array.isArray(s.type) && s.type.includes("null")) ||
      s.enum?.includes(null) ||
      (s.oneOf ?? s.anyOf ?? []).some(isNullType),
  );
}

/** A schema's type as inline nodes: component names link to their schema. */
function typeOf(schema) {
  const s = schema ?? {};
  const name = refName(s);
  if (name) {
    return [el("a", { href: `#schema-${name}` }, el("code", { text: name }))];
  }
  if (s.type === "array" || (Array.isArray(s.type) && s.type.includes("array"))) {
    return s.items ? [...typeOf(s.items), "[]"] : ["array"];
  }
  const variants = variantsOf(s);
  if (variants.length > 0) {
    // Each distinct type once: four enum variants of two types read "string | number".
    const seen = new Set();
    const parts = [];
    for (const v of variants) {
      const nodes = typeOf(v);
      const key = nodes.map((n) => (typeof n === "string" ? n : n.textContent)).join("");
      if (!seen.has(key)) {
        seen.add(key);
        parts.push(...(parts.length ? [" | "] : []), ...nodes);
      }
    }
    return parts;
  }
  if (s.enum && !s.type) {
    return [typeof s.enum.find((v) => v !== null)];
  }
  const types = (Array.isArray(s.type) ? s.type : [s.type ?? "any"]).filter((t) => t !== "null");
  const base = types.join(" | ") || "any";
  if (base === "object" && s.additionalProperties && !s.properties) {
    return ["object (any keys)"];
  }
  return [s.format ? `${base} (${s.format})` : base];
}

/** The values an enum (or a choice of enums) allows, null left out. */
function enumValues(s) {
  const variants = variantsOf(s);
  const lists = s.enum ? [s.enum] : variants.map((v) => v.enum);
  if (lists.length === 0 || lists.some((l) => !l)) {
    return null;
  }
  return lists.flat().filter((v) => v !== null);
}

/** Limits a client must respect, in words. */
function limitsOf(schema) {
  const s = schema ?? {};
  const out = [];
  const values = enumValues(s);
  if (values) {
    out.push(`one of ${values.map((v) => JSON.stringify(v)).join(", ")}`);
  }
  const pairs = [
    ["minLength", "at least", "characters"],
    ["maxLength", "at most", "characters"],
    ["minimum", "≥", ""],
    ["maximum", "≤", ""],
    ["minItems", "at least", "items"],
    ["maxItems", "at most", "items"],
  ];
  for (const [key, word, unit] of pairs) {
    if (typeof s[key] === "number") {
      out.push(`${word} ${s[key]}${unit ? ` ${unit}` : ""}`);
    }
  }
  if (s.pattern) {
    out.push(`matches ${s.pattern}`);
  }
  if (s.default !== undefined && s.default !== null) {
    out.push(`default ${JSON.stringify(s.default)}`);
  }
  if (nullable(s)) {
    out.push("nullable");
  }
  return out;
}

/** The rows of an object's fields; inline nested objects add `parent.child` rows (2 levels). */
function fieldRows(schema, prefix = "", depth = 0) {
  const s = resolve(schema);
  const merged = s.allOf ? Object.assign({}, ...s.allOf.map(resolve)) : s;
  const props = merged.properties ?? {};
  const required = new Set(merged.required ?? []);
  const rows = [];
  for (const [name, prop] of Object.entries(props)) {
    const notes = [...limitsOf(prop), ...limitsOf(prop.items)];
    rows.push(
      el(
        "tr",
        {},
        el("td", {}, el("code", { text: `${prefix}${name}` })),
        el("td", {}, ...typeOf(prop)),
        el("td", { text: required.has(name) ? "required" : "optional" }),
        el(
          "td",
          {},
          notes.length ? el("span", { class: "limits", text: notes.join(", ") }) : "",
          prop.description ? el("span", { class: "desc", text: ` ${prop.description}` }) : "",
        ),
      ),
    );
    const inner = prop.type === "array" ? prop.items : prop;
    if (depth < 1 && inner && !inner.$ref && inner.properties) {
      rows.push(...fieldRows(inner, `${prefix}${name}${prop.type === "array" ? "[]" : ""}.`, 1));
    }
  }
  return rows;
}

function fieldsTable(caption, schema) {
  const rows = fieldRows(schema);
  if (rows.length === 0) {
    const s = resolve(schema);
    const variants = variantsOf(s);
    if (variants.length > 1) {
      return el("p", {}, `${caption}: one of `, ...typeOf(s), ".");
    }
    return el("p", {}, `${caption}: `, ...typeOf(schema), ".");
  }
  const head = el("tr");
  for (const h of ["field", "type", "", "limits and meaning"]) {
    head.append(el("th", { scope: "col", text: h || "required" }));
  }
  return el(
    "div",
    { class: "table" },
    el(
      "table",
      { class: "fields" },
      el("caption", { text: caption }),
      el("thead", {}, head),
      el("tbody", {}, ...rows),
    ),
  );
}

/** A string that reads right for a field of that name. */
function sampleText(name = "", format = "") {
  const formats = {
    email: "alice@acme.inc",
    uri: `${ORIGIN}/example`,
    "date-time": "2026-01-01T09:00:00Z",
    date: "2026-01-01",
  };
  if (formats[format]) {
    return formats[format];
  }
  const byName = [
    [/email/, "alice@acme.inc"],
    [/url|link/, `${ORIGIN}/example`],
    [/password/, "correct horse battery"],
    [/^name$|_name$/, "Alice Example"],
    [/^content$|message$|description/, "Hello! How can we help?"],
    [/title/, "Getting started"],
    [/color/, "#1f93ff"],
  ];
  return byName.find(([re]) => re.test(name))?.[1] ?? "text";
}

/** A plausible value for a schema: its example, else one made from its type (never null). */
function example(schema, depth = 0, onlyRequired = false, name = "") {
  const s = resolve(schema);
  if (s.example !== undefined && s.example !== null) {
    return s.example;
  }
  if (s.allOf) {
    return Object.assign({}, ...s.allOf.map((p) => example(p, depth, onlyRequired)));
  }
  const variants = variantsOf(s);
  if (variants.length > 0) {
    return example(variants[0], depth, onlyRequired, name);
  }
  if (s.enum) {
    return s.enum.find((v) => v !== null);
  }
  const type = (Array.isArray(s.type) ? s.type : [s.type]).find((t) => t && t !== "null");
  if (type === "array") {
    return depth > 3 ? [] : [example(s.items, depth + 1, onlyRequired, name)];
  }
  if (type === "object" || s.properties) {
    const out = {};
    if (depth > 3) {
      return out;
    }
    const required = new Set(s.required ?? []);
    const names = Object.keys(s.properties ?? {});
    const chosen = onlyRequired ? names.filter((n) => required.has(n)) : names;
    // A request with no required field still shows its first few.
    for (const key of chosen.length ? chosen : names.slice(0, 3)) {
      out[key] = example(s.properties[key], depth + 1, onlyRequired, key);
    }
    return out;
  }
  if (type === "integer" || type === "number") {
    return typeof s.minimum === "number" ? s.minimum : 1;
  }
  if (type === "boolean") {
    return true;
  }
  return sampleText(name, s.format);
}

const shellQuote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/** The operation as a curl command, with the demo's token and account when there are some. */
function curl(path, method, op) {
  const params = op.parameters ?? [];
  const url = path.replace(/\{([^}]+)\}/g, (_, name) => {
    if (name === "account_id" && demo.account) {
      return demo.account;
    }
    if (name === "inbox_identifier" && demo.apiInbox) {
      return demo.apiInbox;
    }
    const p = params.find((x) => x.name === name && x.in === "path");
    return String(p?.schema?.example ?? `{${name}}`);
  });
  const lines = [`curl -X ${method.toUpperCase()} ${shellQuote(ORIGIN + url)}`];
  const secured = op.security ?? [{ api_access_token: [] }];
  if (secured.length > 0) {
    const token = path.startsWith("/platform/")
      ? (demo.platform ?? "PLATFORM_TOKEN")
      : (demo.token ?? "YOUR_TOKEN");
    lines.push(`-H ${shellQuote(`api_access_token: ${token}`)}`);
  }
  const content = op.requestBody?.content ?? {};
  if (content["application/json"]) {
    const body = example(content["application/json"].schema, 0, true);
    lines.push("-H 'content-type: application/json'", `-d ${shellQuote(JSON.stringify(body))}`);
  } else if (content["multipart/form-data"]) {
    const fields = resolve(content["multipart/form-data"].schema).properties ?? {};
    for (const [name, prop] of Object.entries(fields).slice(0, 3)) {
      const binary = prop.format === "binary" || prop.items?.format === "binary";
      const value = binary ? "@file.png" : example(prop, 0, true, name);
      lines.push(`-F ${shellQuote(`${name}=${value}`)}`);
    }
  }
  return lines.join(" \\\n  ");
}

function codeBlock(label, text) {
  // Focusable: a scrolling box must be reachable from the keyboard.
  return el("div", {}, el("h3", { text: label }), el("pre", { tabindex: "0" }, el("code", { text })));
}

function parameters(list) {
  if (!list?.length) {
    return "";
  }
  const body = el("tbody");
  for (const p of list) {
    const notes = limitsOf(p.schema);
    body.append(
      el(
        "tr",
        {},
        el("td", {}, el("code", { text: p.name })),
        el("td", { text: p.in }),
        el("td", {}, ...typeOf(p.schema)),
        el("td", { text: p.required ? "required" : "optional" }),
        el(
          "td",
          {},
          notes.length ? el("span", { class: "limits", text: notes.join(", ") }) : "",
          p.description ? el("span", { class: "desc", text: ` ${p.description}` }) : "",
        ),
      ),
    );
  }
  const head = el("tr");
  for (const h of ["name", "in", "type", "required", "limits and meaning"]) {
    head.append(el("th", { scope: "col", text: h }));
  }
  return el(
    "div",
    { class: "table" },
    el("table", { class: "params" }, el("caption", { text: "Parameters" }), el("thead", {}, head), body),
  );
}

function requestBody(body) {
  const entries = Object.entries(body?.content ?? {});
  if (entries.length === 0) {
    return "";
  }
  const [type, media] = entries.find(([t]) => t === "application/json") ?? entries[0];
  const others = entries.map(([t]) => t).filter((t) => t !== type);
  return el(
    "div",
    {},
    fieldsTable(`Request body (${type}${body.required ? ", required" : ""})`, media.schema),
    others.length ? el("p", { class: "mu", text: `Also accepted as ${others.join(", ")}.` }) : "",
  );
}

function responses(map) {
  const list = el("dl", { class: "responses" });
  let shown = "";
  for (const [code, r] of Object.entries(map ?? {})) {
    const schema = r.content?.["application/json"]?.schema;
    list.append(
      el("dt", {}, el("code", { text: code })),
      el(
        "dd",
        {},
        el("span", { class: "desc", text: r.description ?? "" }),
        schema ? " — " : "",
        ...(schema ? typeOf(schema) : []),
      ),
    );
    if (!shown && /^2/.test(code)) {
      shown = schema
        ? codeBlock(`Example response (${code})`, JSON.stringify(example(schema), null, 2))
        : el("p", { class: "mu", text: `${code}: no body.` });
    }
  }
  return el("div", {}, el("h3", { text: "Responses" }), list, shown);
}

/** Fills a <details> with `build()` the first time it opens. */
function lazy(details, build) {
  const fill = () => {
    if (details.open && !details.dataset.built) {
      details.dataset.built = "1";
      details.append(...build());
    }
  };
  details.addEventListener("toggle", fill);
  return details;
}

function operation(path, method, op) {
  const id = `op-${method}-${path.replace(/[^A-Za-z0-9]+/g, "-")}`;
  const summary = el(
    "summary",
    {},
    el("span", { class: `method ${method}`, text: method.toUpperCase() }),
    el("code", { class: "path", text: path }),
    op.summary ? el("span", { class: "sum desc", text: op.summary }) : "",
  );
  const details = el("details", { id, "data-search": `${method} ${path} ${op.summary ?? ""}` });
  details.append(summary);
  return lazy(details, () => [
    op.description ? el("p", { class: "desc", text: op.description }) : "",
    op.security?.length === 0
      ? el("p", { class: "mu", text: "No token: this call is public." })
      : el("p", { class: "mu" }, "Send ", el("code", { text: "api_access_token" }), " in a header."),
    parameters(op.parameters),
    requestBody(op.requestBody),
    codeBlock("Example request", curl(path, method, op)),
    responses(op.responses),
  ]);
}

function schemaSection() {
  const section = el("section", { id: "schemas" }, el("h2", { text: "Schemas" }));
  for (const [name, schema] of Object.entries(schemas)) {
    const details = el(
      "details",
      { id: `schema-${name}`, "data-search": name },
      el("summary", {}, el("code", { text: name })),
    );
    section.append(
      lazy(details, () => [
        schema.description ? el("p", { class: "desc", text: schema.description }) : "",
        fieldsTable(name, { $ref: `#/components/schemas/${name}` }),
        codeBlock("Example", JSON.stringify(example(schema), null, 2)),
      ]),
    );
  }
  return section;
}

/** Opens the operation or schema the address names (and scrolls to it). */
function follow() {
  const target = decodeURIComponent(window.location.hash.slice(1));
  const node = target ? document.getElementById(target) : null;
  if (node instanceof HTMLDetailsElement) {
    node.hidden = false;
    node.open = true;
    node.scrollIntoView();
  }
}

/** Lets the browser paint and take input between chunks (no long task on a slow phone). */
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));

async function render(doc) {
  schemas = doc.components?.schemas ?? {};
  document.title = `${doc.info?.title ?? "API"} reference`;
  const groups = new Map();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      if (item[method]) {
        const tag = item[method].tags?.[0] ?? "Other";
        groups.set(tag, [...(groups.get(tag) ?? []), [path, method, item[method]]]);
      }
    }
  }
  for (const [tag, ops] of groups) {
    const id = `tag-${tag.replace(/[^A-Za-z0-9]+/g, "-")}`;
    const built = ops.map(([path, method, op]) => operation(path, method, op));
    main.insertBefore(el("section", { id }, el("h2", { text: tag }), ...built), status);
    toc.append(el("li", {}, el("a", { href: `#${id}`, text: `${tag} (${ops.length})` })));
    await breathe();
  }
  if (Object.keys(schemas).length > 0) {
    main.insertBefore(schemaSection(), status);
    toc.append(el("li", {}, el("a", { href: "#schemas", text: "Schemas" })));
  }
  status.textContent = "";
  follow();
}

filter.addEventListener("input", () => {
  const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
  for (const item of main.querySelectorAll("details[data-search]")) {
    const text = item.dataset.search.toLowerCase();
    item.hidden = !words.every((w) => text.includes(w));
  }
});
window.addEventListener("hashchange", follow);

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
