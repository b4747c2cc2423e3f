// Issue 24: the loader's own work on the host page's main thread before any interaction, under
// 4× CPU throttling, without wrangler or the chat: the built widget.js served from another site
// to a plain page with the embed snippet (data-color, as web_widget_script gives it), each page
// view traced, the tasks the loader's code ran in summed (test/bench/longtasks.mjs). With
// LOADER_BEFORE=<path of another widget.js build> the two alternate view by view (an A/B on a
// loaded machine). BENCH_VIEWS=n page views per build (12).
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { chromium } from "playwright-core";
import { root } from "../../scripts/lib/wrangler.mjs";
import { fmt, percentile } from "./lib.mjs";
import { hostTasks, TRACE_CATEGORIES } from "./longtasks.mjs";

const VIEWS = Number(process.env.BENCH_VIEWS ?? 12);
const THROTTLE = 4;
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
];

const listen = (handler) =>
  new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });

/** The script on 127.0.0.1, the page on localhost: another site, as on a customer's page. */
async function side(name, file) {
  const js = readFileSync(file);
  const scripts = await listen((_req, res) => {
    res.writeHead(200, { "content-type": "text/javascript" });
    res.end(js);
  });
  const base = `http://127.0.0.1:${scripts.address().port}`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head>
<body><h1>A shop</h1>${"<p>Some product text, a price, a button.</p>".repeat(50)}
<script src="${base}/widget.js" data-color="#1f93ff" data-inbox="benchWidgetInbox00000001" async></script></body></html>`;
  const pages = await listen((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(html);
  });
  const hostUrl = `http://localhost:${pages.address().port}`;
  return { name, base, hostUrl, servers: [scripts, pages], views: [] };
}

async function view(browser, s) {
  const context = await browser.newContext();
  const p = await context.newPage();
  await (await context.newCDPSession(p)).send("Emulation.setCPUThrottlingRate", { rate: THROTTLE });
  await browser.startTracing(p, { categories: TRACE_CATEGORIES });
  await p.goto(s.hostUrl, { waitUntil: "load" });
  await p.locator("parley-widget button").waitFor();
  // The storage read and anything else the loader does on its own, after the launcher.
  await p.waitForTimeout(1200);
  const trace = JSON.parse((await browser.stopTracing()).toString());
  await context.close();
  const tasks = hostTasks(trace, { hostUrl: s.hostUrl, widgetUrls: [s.base] }).tasks.filter(
    (t) => t.owner === "widget",
  );
  return {
    wall: tasks.reduce((n, t) => n + t.wall, 0),
    cpu: tasks.reduce((n, t) => n + t.cpu, 0),
    long: tasks.filter((t) => t.wall > 50).length,
    steps: tasks.map((t) => t.cpu),
  };
}

const p50 = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export async function main() {
  const sides = [await side("this build", path.join(root, "widget", "dist", "widget.js"))];
  if (process.env.LOADER_BEFORE) {
    sides.unshift(await side("before", process.env.LOADER_BEFORE));
  }
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  try {
    for (let i = 0; i < VIEWS; i++) {
      for (const s of i % 2 === 0 ? sides : [...sides].reverse()) {
        s.views.push(await view(browser, s));
      }
    }
  } finally {
    await browser.close();
    for (const server of sides.flatMap((s) => s.servers)) {
      server.close();
    }
  }
  process.stdout.write(
    `\nThe loader's host tasks before any interaction, ${THROTTLE}× CPU throttling, ${VIEWS} page views each (target: ≤ 10 ms, none over 50 ms)\n`,
  );
  for (const s of sides) {
    const v = s.views;
    const typical = v.find((x) => x.steps.length === p50(v.map((y) => y.steps.length))) ?? v[0];
    process.stdout.write(
      `${s.name}: wall p50 ${fmt(p50(v.map((x) => x.wall)))} ms (max ${fmt(Math.max(...v.map((x) => x.wall)))}), ` +
        `CPU p50 ${fmt(p50(v.map((x) => x.cpu)))} ms, tasks over 50 ms: ${v.reduce((n, x) => n + x.long, 0)}; ` +
        `${typical.steps.length} tasks, e.g. CPU ${typical.steps.map((c) => fmt(c)).join(" / ")} ms\n`,
    );
  }
}
