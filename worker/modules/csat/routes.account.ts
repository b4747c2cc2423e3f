import { createRoute, z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { PageNumber } from "../../http/schemas/pagination";
import { csvLine } from "../../lib/csv";
import { presentResponse } from "./presenter";
import { ratingCounts, responsePage, sentCount } from "./queries";
import { CsatFilterQuery, CsatMetricsSchema, CsatSurveyResponseSchema, filterOf } from "./schema";

const tags = ["CSAT Survey Responses"];
/** Chatwoot's RESULTS_PER_PAGE. */
const PER_PAGE = 25;
/** Rows a download holds at most (Chatwoot's has no page; a bound keeps it one response). */
const DOWNLOAD_LIMIT = 10_000;

// Chatwoot: GET /api/v1/accounts/{a}/csat_survey_responses
const list = createRoute({
  method: "get",
  path: "/csat_survey_responses",
  tags,
  summary: "Survey responses, newest first, 25 a page, filtered (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, query: CsatFilterQuery.extend({ page: PageNumber }) },
  responses: {
    200: jsonContent(z.array(CsatSurveyResponseSchema), "A page of responses"),
    ...errorResponses,
  },
});

// Chatwoot: GET /api/v1/accounts/{a}/csat_survey_responses/metrics
const metrics = createRoute({
  method: "get",
  path: "/csat_survey_responses/metrics",
  tags,
  summary: "Totals: responses, per rating, surveys sent, response rate, satisfaction score",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, query: CsatFilterQuery },
  responses: { 200: jsonContent(CsatMetricsSchema, "The metrics"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/csat_survey_responses/download
const download = createRoute({
  method: "get",
  path: "/csat_survey_responses/download",
  tags,
  summary: "The responses as CSV (formula-safe cells), newest first (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, query: CsatFilterQuery },
  responses: {
    200: {
      description: "CSV",
      content: { "text/csv": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...errorResponses,
  },
});

const percent = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100;

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

export const csatAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const query = c.req.valid("query");
    const page = query.page ?? 1;
    const rows = await responsePage(
      c.var.deps.db,
      c.var.account.id,
      filterOf(query),
      PER_PAGE,
      (page - 1) * PER_PAGE,
    );
    return c.json(rows.map(presentResponse), 200);
  })
  .openapi(metrics, async (c) => {
    const filter = filterOf(c.req.valid("query"));
    const { db } = c.var.deps;
    const [counts, sent] = await Promise.all([
      ratingCounts(db, c.var.account.id, filter),
      sentCount(db, c.var.account.id, filter),
    ]);
    const total = counts.reduce((sum, r) => sum + r.n, 0);
    const satisfied = counts.filter((r) => r.rating >= 4).reduce((sum, r) => sum + r.n, 0);
    return c.json(
      {
        total_count: total,
        ratings_count: Object.fromEntries(counts.map((r) => [String(r.rating), r.n])),
        total_sent_messages_count: sent,
        response_rate: percent(total, sent),
        satisfaction_score: percent(satisfied, total),
      },
      200,
    );
  })
  .openapi(download, async (c) => {
    const query = c.req.valid("query");
    const rows = await responsePage(
      c.var.deps.db,
      c.var.account.id,
      filterOf(query),
      DOWNLOAD_LIMIT,
      0,
    );
    const app = `${c.var.deps.origin}/app/accounts/${c.var.account.id}/conversations`;
    const lines = [
      csvLine([
        "Agent Name",
        "Rating",
        "Feedback Comment",
        "Contact Name",
        "Contact Email Address",
        "Contact Phone Number",
        "Link to the conversation",
        "Recorded date",
      ]),
      ...rows.map((row) =>
        csvLine([
          row.agent?.id ? `${row.agent.name} (${row.agent.email})` : null,
          row.response.rating,
          row.response.feedbackMessage || null,
          row.contact?.name || null,
          row.contact?.email || null,
          row.contact?.phone_number || null,
          `${app}/${row.displayId}`,
          isoOf(row.response.createdAt),
        ]),
      ),
    ];
    if (query.since !== undefined && query.until !== undefined) {
      lines.push(csvLine([`Reporting period ${isoOf(query.since)} to ${isoOf(query.until)}`]));
    }
    // Chatwoot's render_csv_with_bom: a BOM so spreadsheets read the file as UTF-8.
    return c.body(`\uFEFF${lines.join("\n")}\n`, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="csat_report.csv"',
    }) as never;
  });
