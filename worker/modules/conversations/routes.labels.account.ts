import { createRoute } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { scopeOf } from "../../http/scope";
import { loadConversationFor } from "./access";
import { ConversationParams } from "./schema";
import { LabelsBodySchema, LabelsResponseSchema } from "./schema.actions";
import { listLabels, setLabels } from "./service.labels";

const tags = ["Conversations"];

// Chatwoot: GET /api/v1/accounts/{a}/conversations/{display_id}/labels
const list = createRoute({
  method: "get",
  path: "/conversations/{conversation_id}/labels",
  tags,
  summary: "List the conversation's labels",
  middleware: [requireMember()] as const,
  request: { params: ConversationParams },
  responses: { 200: jsonContent(LabelsResponseSchema, "The labels"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/conversations/{display_id}/labels
const replace = createRoute({
  method: "post",
  path: "/conversations/{conversation_id}/labels",
  tags,
  summary: "Replace the conversation's labels (free-form, lower-cased)",
  middleware: [requireMember()] as const,
  request: { params: ConversationParams, body: jsonBody(LabelsBodySchema) },
  responses: { 200: jsonContent(LabelsResponseSchema, "The labels now"), ...errorResponses },
});

export const conversationLabelRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const scope = scopeOf(c);
    const row = await loadConversationFor(scope, c.req.valid("param").conversation_id);
    return c.json({ payload: await listLabels(scope, row) }, 200);
  })
  .openapi(replace, async (c) => {
    const scope = scopeOf(c);
    const row = await loadConversationFor(scope, c.req.valid("param").conversation_id);
    return c.json({ payload: await setLabels(scope, row, c.req.valid("json").labels) }, 200);
  });
