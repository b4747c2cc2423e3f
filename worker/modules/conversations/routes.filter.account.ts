import { createRoute } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { scopeOf, viewOf } from "../../http/scope";
import {
  ConversationFilterBody,
  ConversationFilterQuery,
  ConversationFilterResultSchema,
} from "./schema.filter";
import { filterConversations } from "./service.filter";
import { presentConversations } from "./views";

// Chatwoot: POST /api/v1/accounts/{a}/conversations/filter
const filter = createRoute({
  method: "post",
  path: "/conversations/filter",
  tags: ["Conversations"],
  summary: "Filter conversations with the attribute / operator DSL",
  middleware: [requireMember()] as const,
  request: {
    params: AccountParams,
    query: ConversationFilterQuery,
    body: jsonBody(ConversationFilterBody),
  },
  responses: {
    200: jsonContent(ConversationFilterResultSchema, "Counts and one page"),
    ...errorResponses,
  },
});

export const conversationFilterRoutes = createRouter<AccountEnv>().openapi(filter, async (c) => {
  const query = c.req.valid("query");
  const body = c.req.valid("json");
  const page = query.page ?? body.page ?? 1;
  const result = await filterConversations(scopeOf(c), body.payload, { page, sort: query.sort_by });
  const payload = await presentConversations(viewOf(c), result.rows);
  return c.json({ meta: result.counts, payload }, 200);
});
