// Issue #13 benchmark: the public help center served by `wrangler dev` (workerd + local D1) with
// 100 vs 100,000 published articles in one portal. Prints p50/p95 of the article page (rendered
// on a cache miss, from the edge cache, and 304), search (one article's word, a word in 1% and one in every
// article), the server-side render time (Server-Timing), the large/small p95 ratios (target ≤ 2:
// index-driven), the article page's transfer (HTML with its inline CSS, gzip; target ≤ 14 KB,
// one round trip) and its JavaScript (target 0 bytes). Lighthouse runs when the `lighthouse`
// package is installed (it is not a dependency: `npm i --no-save lighthouse`).
import { gzipSync } from "node:zlib";
import { fmt, freshDatabase, measure, percentile, printTable, startServer } from "./lib.mjs";

const SCALES = [
  { name: "small", articles: 100 },
  { name: "large", articles: 100_000 },
];
const CATEGORIES = 20;
const WORDS = [
  "account",
  "billing",
  "invoice",
  "password",
  "export",
  "team",
  "inbox",
  "report",
  "widget",
  "setting",
  "contact",
  "label",
  "message",
  "search",
  "browser",
  "mobile",
];

/** A long text whose windows make the bodies (~90 words each, shifted per article). */
const TEXT = Array.from({ length: 400 }, (_, k) => WORDS[(k * 7 + (k >> 3)) % WORDS.length]).join(
  " ",
);

/** Articles with a body, their own word (`ref{i}x`), one in 1% (`topic{i % 100}`) and one in all (`parley`). */
function seedSql({ articles }) {
  const word = (expr) =>
    `(CASE (${expr}) % ${WORDS.length} ${WORDS.map((w, k) => `WHEN ${k} THEN '${w}'`).join(" ")} END)`;
  return `
INSERT INTO accounts (name) VALUES ('Help bench');
INSERT INTO users (name, email, pubsub_token) VALUES ('Author', 'author@example.com', 'ps1');
INSERT INTO account_users (account_id, user_id, role) VALUES (1, 1, 'administrator');
INSERT INTO inboxes (account_id, name, channel_type, inbox_identifier, hmac_token)
  VALUES (1, 'Bench website', 'Channel::WebWidget', 'benchHelpInbox0000000001', 'bench-hmac');
INSERT INTO portals (account_id, name, slug, color, header_text, allowed_locales, default_locale, inbox_id)
  VALUES (1, 'Bench Help', 'bench', '#1f5fbf', 'How can we help?', '["en"]', 'en', 1);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${CATEGORIES})
INSERT INTO help_categories (account_id, portal_id, locale, name, slug, position)
  SELECT 1, 1, 'en', 'Category ' || i, 'category-' || i, i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${articles})
INSERT INTO help_articles (account_id, portal_id, category_id, locale, author_id, title, slug, content, description, status, position, views, meta)
  SELECT 1, 1, (i % ${CATEGORIES}) + 1, 'en', 1,
    'How to ' || ${word("i")} || ' ' || ${word("i / 7")} || ' ' || i,
    'article-' || i,
    '## Overview' || char(10) || char(10) || substr('${TEXT}', (i % 1000) + 1, 600) || ' topic' || (i % 100) || ' ref' || i || 'x parley.'
      || char(10) || char(10) || '## Steps' || char(10) || char(10) || '1. Open **Settings**' || char(10) || '2. Pick *' || ${word("i + 3")} || '*'
      || char(10) || char(10) || '## Notes' || char(10) || char(10) || 'See [the guide](https://example.com/guide) and \`code\`.',
    'About ' || ${word("i + 5")}, 1, i, i % 1000, '{"tags":["' || ${word("i + 9")} || '"]}'
  FROM n;
`;
}

async function text(url, headers = {}) {
  const res = await fetch(url, { headers });
  const body = await res.text();
  return { res, body };
}

async function runScale(scale, port) {
  const { dir, seedSeconds } = freshDatabase(`helpcenter-${scale.name}`, seedSql(scale));
  process.stdout.write(
    `seeded ${scale.name}: ${scale.articles} articles in ${seedSeconds.toFixed(1)} s\n`,
  );
  const server = await startServer(dir, port);
  const hc = `${server.base}/hc/bench`;
  const article = (i) => `${hc}/articles/article-${((i * 7919) % scale.articles) + 1}`;
  const renderTimes = [];
  const ok =
    (expect) =>
    async ({ res, body }) => {
      if (res.status !== expect) {
        throw new Error(`${res.url} → ${res.status}`);
      }
      return body;
    };
  try {
    const first = await text(article(1));
    const etag = first.res.headers.get("etag");
    const cases = {
      "GET / (no-op floor)": () => fetch(`${server.base}/`).then((r) => r.text()),
      "article page, rendered (cache miss)": (i) =>
        text(`${article(i)}?miss=${scale.name}${i}${Date.now()}`).then(async (r) => {
          const timing = /render;dur=([\d.]+)/.exec(r.res.headers.get("server-timing") ?? "");
          if (timing) {
            renderTimes.push(Number(timing[1]));
          }
          return ok(200)(r);
        }),
      "article page, edge cache": () => text(article(1)).then(ok(200)),
      "article page, 304": () => text(article(1), { "if-none-match": etag ?? "" }).then(ok(304)),
      "search: one article's word": (i) =>
        text(`${hc}/en/articles?query=ref${((i * 7919) % scale.articles) + 1}x&n=${i}${Date.now()}`)
          .then(ok(200))
          .then((b) => {
            if (!b.includes("<mark>")) {
              throw new Error("no hit");
            }
          }),
      "search: word in 1% of articles": (i) =>
        text(`${hc}/en/articles?query=topic${i % 100}&n=${i}${Date.now()}`).then(ok(200)),
      "search: word in every article": (i) =>
        text(`${hc}/en/articles?query=parley&n=${i}${Date.now()}`).then(ok(200)),
      home: (i) => text(`${hc}/en?n=${i}${Date.now()}`).then(ok(200)),
    };
    const results = {};
    for (const [name, fn] of Object.entries(cases)) {
      results[name] = await measure(fn, { n: 200, warmup: 20 });
    }
    renderTimes.sort((a, b) => a - b);
    results.render = { p50: percentile(renderTimes, 50), p95: percentile(renderTimes, 95) };
    const html = first.body;
    results.transfer = {
      html: Buffer.byteLength(html),
      gzip: gzipSync(html).length,
      scripts: (html.match(/<script(?![^>]*application\/ld\+json)/g) ?? []).length,
    };
    // The pages as a visitor gets them: the vote script on articles, the chat on every page.
    results.lighthouse = await lighthouse([
      `${hc}/articles/article-1`,
      `${hc}/en`,
      `${hc}/en/articles?query=parley`,
    ]);
    return results;
  } finally {
    await server.stop();
  }
}

/** Lighthouse scores per URL, mobile and desktop, or null when the package is not installed. */
async function lighthouse(urls) {
  let run;
  let launch;
  let desktop;
  try {
    run = (await import("lighthouse")).default;
    launch = (await import("chrome-launcher")).launch;
    desktop = (await import("lighthouse/core/config/desktop-config.js")).default;
  } catch {
    return null;
  }
  const chrome = await launch({
    chromePath: "/usr/bin/chromium",
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const scores = {};
  try {
    for (const url of urls) {
      for (const [formFactor, config] of [
        ["mobile", undefined],
        ["desktop", desktop],
      ]) {
        const flags = { port: chrome.port, output: "json", logLevel: "error" };
        const c = (await run(url, flags, config)).lhr.categories;
        scores[`${formFactor} ${url}`] = Object.fromEntries(
          Object.entries(c).map(([k, v]) => [k, Math.round((v.score ?? 0) * 100)]),
        );
      }
    }
  } finally {
    await chrome.kill();
  }
  return scores;
}

export async function main() {
  const byScale = {};
  let port = 8971;
  for (const scale of SCALES) {
    const r = await runScale(scale, port++);
    byScale[scale.name] = r;
    const rows = Object.entries(r)
      .filter(([, v]) => v && typeof v === "object" && "p95" in v && "n" in v)
      .map(([name, v]) => ({ name, ...v }));
    printTable(
      `${scale.name}: ${scale.articles} published articles, ${CATEGORIES} categories`,
      rows,
    );
    process.stdout.write(
      `  server-side render (Server-Timing, misses): p50 ${fmt(r.render.p50)} ms, p95 ${fmt(r.render.p95)} ms\n`,
    );
  }
  process.stdout.write(
    "\nratios large/small (p95; target ≤ 2 for the article page and every search)\n",
  );
  for (const name of Object.keys(byScale.small).filter(
    (k) => byScale.small[k] && "n" in byScale.small[k],
  )) {
    process.stdout.write(
      `  ${name.padEnd(38)} ${fmt(byScale.large[name].p95 / byScale.small[name].p95)}×\n`,
    );
  }
  const t = byScale.large.transfer;
  process.stdout.write(
    `\narticle page transfer: ${t.html} B HTML+CSS, ${t.gzip} B gzip (target ≤ 14336), ${t.scripts} scripts (target 0 bytes of JavaScript)\n`,
  );
  const lh = byScale.large.lighthouse;
  if (lh) {
    process.stdout.write("\nLighthouse (large scale)\n");
    for (const [url, s] of Object.entries(lh)) {
      process.stdout.write(`  ${url}: ${JSON.stringify(s)}\n`);
    }
  } else {
    process.stdout.write(
      "\nLighthouse: skipped (npm i --no-save lighthouse@12.2.3 chrome-launcher to run it)\n",
    );
  }
  return byScale;
}
