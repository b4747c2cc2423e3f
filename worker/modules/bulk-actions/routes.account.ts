import { createRoute } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { scopeOf } from "../../http/scope";
import { BulkActionSchema, BulkResultSchema } from "./schema";
import { bulkUpdateConversations } from "./service";
import { bulkUpdateContacts } from "./service.contacts";

// Chatwoot: POST /api/v1/accounts/{a}/bulk_actions
const bulk = createRoute({
  method: "post",
  path: "/bulk_actions",
  tags: ["Bulk Actions"],
  summary:
    "Change many conversations (status, assignee, team, labels) or contacts (labels, delete) at once",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, body: jsonBody(BulkActionSchema) },
  responses: {
    200: jsonContent(BulkResultSchema, "What happened to each record"),
    ...errorResponses,
  },
});

export const bulkActionAccountRoutes = createRouter<AccountEnv>().openapi(bulk, async (c) => {
  const input = c.req.valid("json");
  const scope = scopeOf(c);
  const payload =
    input.type === "Contact"
      ? await bulkUpdateContacts(scope, input)
      : await bulkUpdateConversations(scope, input);
  return c.json({ payload }, 200);
});
