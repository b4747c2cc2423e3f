/**
 * The layering of worker/ (docs/architecture.md) and of the widget (widget/README.md), checked
 * by `npm test` (`npm run deps`).
 * Layers point down only:
 *   entry (index, app, wiring) → api/ → http/ + modules/x/routes.*.ts → modules/ → realtime/
 *   → events/ → db/, lib/, env.ts
 * Type-only imports count too: a type from above is still a dependency on it.
 */
const ROUTES = "^worker/modules/[^/]+/routes\\.[^/]+\\.ts$";
const ENTRY = "^worker/(index|app|wiring)\\.ts$";

/** A rule: files matching `from` may not import files matching `to` (minus `except`). */
const down = (name, comment, from, to, fromExcept, toExcept) => ({
  name,
  comment,
  severity: "error",
  from: { path: from, ...(fromExcept ? { pathNot: fromExcept } : {}) },
  to: { path: to, ...(toExcept ? { pathNot: toExcept } : {}) },
});

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "An import cycle ties files into one unit nobody can change alone.",
      severity: "error",
      from: { path: "^(worker|widget)/" },
      to: { circular: true },
    },
    down(
      "widget-loader-alone",
      "The loader runs on the customer's page without the app: it shares only widget/src/shared/.",
      "^widget/src/loader/",
      "^widget/src/app/",
    ),
    down(
      "widget-app-not-loader",
      "The app runs in the iframe; the loader's code is the host page's.",
      "^widget/src/app/",
      "^widget/src/loader/",
    ),
    down(
      "widget-shared-pure",
      "shared/ is used by both sides and imports neither.",
      "^widget/src/shared/",
      "^widget/src/(app|loader)/",
    ),
    down(
      "widget-views-through-state",
      "Components, screens and the lazy chunks call actions in state/; only state/ reaches the " +
        "API client and the socket (transport.ts decides which).",
      "^widget/src/app/(components|screens|help|interactive)/",
      "^widget/src/app/(api/(client|endpoints)|realtime/)",
    ),
    {
      name: "widget-worker-types-only",
      comment: "The widget takes the Worker's wire types with `import type` only: no zod, no code.",
      severity: "error",
      from: { path: "^widget/" },
      to: { path: "^worker/", dependencyTypesNot: ["type-only"] },
    },
    down(
      "base-stays-pure",
      "db/, lib/ and env.ts are the bottom: they import nothing of the service above them.",
      "^worker/(db/|lib/|env\\.ts$)",
      "^worker/(events|realtime|modules|http|api)/|" + ENTRY,
    ),
    down(
      "events-below-realtime",
      "events/ records and dispatches; who handles what is registered from above (wiring.ts).",
      "^worker/events/",
      "^worker/(realtime|modules|http|api)/|" + ENTRY,
    ),
    down(
      "realtime-below-modules",
      "realtime/ moves frames; records and their presenters belong to the modules.",
      "^worker/realtime/",
      "^worker/(modules|http|api)/|" + ENTRY,
    ),
    down(
      "modules-below-http",
      "Services, queries and presenters know nothing of HTTP but the shared wire schemas.",
      "^worker/modules/",
      "^worker/(http|api)/|" + ROUTES + "|" + ENTRY,
      ROUTES,
      "^worker/http/schemas/",
    ),
    down(
      "http-below-api",
      "The HTTP shell and the routes are mounted by api/, never the reverse.",
      "^worker/http/|" + ROUTES,
      "^worker/api/|" + ENTRY,
    ),
    down("api-below-entry", "api/ is mounted by app.ts.", "^worker/api/", ENTRY),
    down(
      "room-class-from-entry-only",
      "The conversation room's class is bound by the entry alone: callers reach rooms through " +
        "roomFor (conversation-room/stub.ts), so the room may import what it serves (its " +
        "socket actions, the message service) without a cycle.",
      "^worker/",
      "^worker/modules/conversation-room/room\\.ts$",
      "^worker/index\\.ts$",
    ),
  ],
  options: {
    includeOnly: "^(worker|widget)/",
    exclude: { path: "worker-configuration\\.d\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "worker/tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js"] },
  },
};
