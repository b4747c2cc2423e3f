import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { summaryCsv } from "./csv";
import { presentSummaryRow } from "./presenter";
import {
  LiveAccountSchema,
  LiveAgentsSchema,
  LiveQuery,
  SeriesQuery,
  SeriesSchema,
  SummaryListSchema,
  SummaryQuery,
  TotalsQuery,
  TotalsSchema,
} from "./schema";
import { type SummaryKind, summaryReport } from "./service";
import { liveConversations, reportTotals, timeSeries } from "./service.series";

const tags = ["Reports"];
const middleware = [requireAdmin];
const csvContent = { "text/csv": { schema: z.string().openapi({ format: "binary" }) } };

const KINDS: { kind: SummaryKind; csv: string; spec?: string }[] = [
  { kind: "agent", csv: "agents", spec: "E17" },
  { kind: "team", csv: "teams", spec: "E18" },
  { kind: "inbox", csv: "inboxes" },
  { kind: "label", csv: "labels" },
];

const csvResponse = (c: Context, body: ReadableStream, name: string) =>
  c.body(body, 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${name}.csv"`,
  });

export const reportAccountRoutes = createRouter<AccountEnv>();

for (const { kind, csv, spec } of KINDS) {
  // Chatwoot: GET /api/v2/accounts/{a}/summary_reports/{kind}
  const summary = createRoute({
    method: "get",
    path: `/summary_reports/${kind}`,
    tags,
    summary: `${spec ? `${spec}. ` : ""}Statistics grouped by ${kind} (administrators)`,
    description: `One row per ${kind}; \`Accept: text/csv\` answers the CSV. See docs/reports.md.`,
    middleware,
    request: { params: AccountParams, query: SummaryQuery },
    responses: {
      200: {
        description: `One row per ${kind}`,
        content: { "application/json": { schema: SummaryListSchema }, ...csvContent },
      },
      ...errorResponses,
    },
  });
  reportAccountRoutes.openapi(summary, async (c) => {
    const rows = await summaryReport(c.var.deps.db, c.var.account.id, kind, c.req.valid("query"));
    if (c.req.header("accept")?.includes("text/csv")) {
      return csvResponse(c, summaryCsv(rows), csv) as never;
    }
    return c.json(rows.map(presentSummaryRow), 200);
  });
  const download = createRoute({
    method: "get",
    path: `/reports/${csv}.csv`,
    tags,
    summary: `Download the ${kind} summary as CSV (administrators)`,
    middleware,
    request: { params: AccountParams, query: SummaryQuery },
    responses: {
      200: { description: "CSV with a header row", content: csvContent },
      ...errorResponses,
    },
  });
  reportAccountRoutes.openapi(download, async (c) => {
    const rows = await summaryReport(c.var.deps.db, c.var.account.id, kind, c.req.valid("query"));
    return csvResponse(c, summaryCsv(rows), csv) as never;
  });
}

// Chatwoot: GET /api/v2/accounts/{a}/reports?metric=…
const series = createRoute({
  method: "get",
  path: "/reports",
  tags,
  summary: "A metric over time, per day, week, month or year (administrators)",
  middleware,
  request: { params: AccountParams, query: SeriesQuery },
  responses: { 200: jsonContent(SeriesSchema, "One value per bucket"), ...errorResponses },
});

// Chatwoot: GET /api/v2/accounts/{a}/reports/summary
const totals = createRoute({
  method: "get",
  path: "/reports/summary",
  tags,
  summary: "Totals of a range and of the range before it (administrators)",
  middleware,
  request: { params: AccountParams, query: TotalsQuery },
  responses: { 200: jsonContent(TotalsSchema, "Totals"), ...errorResponses },
});

// Chatwoot: GET /api/v2/accounts/{a}/reports/conversations
const live = createRoute({
  method: "get",
  path: "/reports/conversations",
  tags,
  summary: "Open, unattended, unassigned and pending conversations now (administrators)",
  middleware,
  request: { params: AccountParams, query: LiveQuery },
  responses: {
    200: {
      description: "The account's counts (type=account) or each agent's (type=agent)",
      content: { "application/json": { schema: z.union([LiveAccountSchema, LiveAgentsSchema]) } },
    },
    ...errorResponses,
  },
});

reportAccountRoutes
  .openapi(series, async (c) =>
    c.json(await timeSeries(c.var.deps.db, c.var.account.id, c.req.valid("query")), 200),
  )
  .openapi(totals, async (c) =>
    c.json(await reportTotals(c.var.deps.db, c.var.account.id, c.req.valid("query")), 200),
  )
  .openapi(live, async (c) =>
    c.json(
      await liveConversations(c.var.deps.db, c.var.account.id, c.req.valid("query").type),
      200,
    ),
  );
