import { createRoute } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import {
  ChannelSummarySchema,
  FirstResponseDistributionSchema,
  InboxLabelMatrixSchema,
  idsOf,
  MatrixQuery,
  OutgoingMessagesCountSchema,
  OutgoingQuery,
  RangeQuery,
} from "./schema.breakdowns";
import {
  CHANNEL_MAX_DAYS,
  channelSummary,
  firstResponseDistribution,
  inboxLabelMatrix,
  outgoingMessagesCount,
} from "./service.breakdowns";

const tags = ["Reports"];
const middleware = [requireAdmin];

// Chatwoot: GET /api/v2/accounts/{a}/summary_reports/channel
const channel = createRoute({
  method: "get",
  path: "/summary_reports/channel",
  tags,
  summary: "Conversations by channel type and status (administrators)",
  description:
    "Conversations created in [since, until) per channel type, by their current status. Both " +
    `bounds are required and the range is at most ${CHANNEL_MAX_DAYS} days (Chatwoot's six ` +
    "months): longer is a 400. See docs/reports.md.",
  middleware,
  request: { params: AccountParams, query: RangeQuery },
  responses: {
    200: jsonContent(ChannelSummarySchema, "Counts per channel type"),
    ...errorResponses,
  },
});

// Chatwoot: GET /api/v2/accounts/{a}/reports/first_response_time_distribution
const distribution = createRoute({
  method: "get",
  path: "/reports/first_response_time_distribution",
  tags,
  summary: "First response times by channel type, in buckets (administrators)",
  description:
    "First responses in the range per channel type: under 1 h, 1–4 h, 4–8 h, 8–24 h and 24 h or " +
    "more (wall-clock seconds). Either bound missing: all time.",
  middleware,
  request: { params: AccountParams, query: RangeQuery },
  responses: {
    200: jsonContent(FirstResponseDistributionSchema, "Counts per channel type and bucket"),
    ...errorResponses,
  },
});

// Chatwoot: GET /api/v2/accounts/{a}/reports/inbox_label_matrix
const matrix = createRoute({
  method: "get",
  path: "/reports/inbox_label_matrix",
  tags,
  summary: "Labelled conversations per inbox and label (administrators)",
  description:
    "Inboxes by name, labels by title, and matrix[i][j]: conversations of inbox i labelled " +
    "with label j in the range. Either bound missing: all time.",
  middleware,
  request: { params: AccountParams, query: MatrixQuery },
  responses: { 200: jsonContent(InboxLabelMatrixSchema, "The matrix"), ...errorResponses },
});

// Chatwoot: GET /api/v2/accounts/{a}/reports/outgoing_messages_count
const outgoing = createRoute({
  method: "get",
  path: "/reports/outgoing_messages_count",
  tags,
  summary: "Outgoing messages per agent, team, inbox or label (administrators)",
  description:
    "Public outgoing messages in the range; by agent, only agents' own messages. Entities " +
    "without messages are left out. Either bound missing: all time.",
  middleware,
  request: { params: AccountParams, query: OutgoingQuery },
  responses: {
    200: jsonContent(OutgoingMessagesCountSchema, "One row per entity with messages"),
    ...errorResponses,
  },
});

export const reportBreakdownRoutes = createRouter<AccountEnv>()
  .openapi(channel, async (c) =>
    c.json(await channelSummary(c.var.deps.db, c.var.account.id, c.req.valid("query")), 200),
  )
  .openapi(distribution, async (c) =>
    c.json(
      await firstResponseDistribution(c.var.deps.db, c.var.account.id, c.req.valid("query")),
      200,
    ),
  )
  .openapi(matrix, async (c) => {
    const q = c.req.valid("query");
    const input = {
      since: q.since,
      until: q.until,
      inbox_ids: idsOf("inbox_ids", q.inbox_ids, q["inbox_ids[]"]),
      label_ids: idsOf("label_ids", q.label_ids, q["label_ids[]"]),
    };
    return c.json(await inboxLabelMatrix(c.var.deps.db, c.var.account.id, input), 200);
  })
  .openapi(outgoing, async (c) => {
    const { group_by, ...range } = c.req.valid("query");
    return c.json(
      await outgoingMessagesCount(c.var.deps.db, c.var.account.id, group_by, range),
      200,
    );
  });
