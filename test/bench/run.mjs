// `npm run bench [-- name…]`: runs the benchmarks in test/bench/ (all when none is named).
const suites = {
  "api-scale": () => import("./api-scale.mjs"),
  bundle: () => import("./bundle.mjs"),
  dashboard: () => import("./dashboard.mjs"),
  helpcenter: () => import("./helpcenter.mjs"),
  realtime: () => import("./realtime.mjs"),
  reports: () => import("./reports.mjs"),
  schedule: () => import("./schedule.mjs"),
  webhooks: () => import("./webhooks.mjs"),
  widget: () => import("./widget.mjs"),
  "widget-loader": () => import("./widget-loader.mjs"),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const names = wanted.length > 0 ? wanted : Object.keys(suites);
for (const name of names) {
  const load = suites[name];
  if (!load) {
    process.stderr.write(`unknown benchmark ${name}; known: ${Object.keys(suites).join(", ")}\n`);
    process.exit(2);
  }
  process.stdout.write(`\n=== ${name} ===\n`);
  await (await load()).main();
}
