import { createRoute } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { scopeOf, viewOf } from "../../http/scope";
import { loadConversationFor } from "./access";
import {
  ConversationListQuery,
  ConversationListSchema,
  ConversationMetaResponseSchema,
  ConversationParams,
  ConversationSchema,
} from "./schema";
import { ConversationCreateSchema, ConversationUpdateSchema } from "./schema.actions";
import { createWithMessage } from "./service";
import { updateConversation } from "./service.actions";
import { countOnly, listConversations } from "./service.list";
import { presentConversations, presentCurrent, presentOne } from "./views";

const tags = ["Conversations"];

// Chatwoot: GET /api/v1/accounts/{a}/conversations
const list = createRoute({
  method: "get",
  path: "/conversations",
  tags,
  summary: "List conversations (E4), with counts per assignee type",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, query: ConversationListQuery },
  responses: { 200: jsonContent(ConversationListSchema, "Counts and one page"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/conversations/meta
const meta = createRoute({
  method: "get",
  path: "/conversations/meta",
  tags,
  summary: "Counts of the conversation list for the same filters",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, query: ConversationListQuery },
  responses: { 200: jsonContent(ConversationMetaResponseSchema, "Counts"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/conversations/{display_id}
const show = createRoute({
  method: "get",
  path: "/conversations/{conversation_id}",
  tags,
  summary: "Get a conversation (E5)",
  middleware: [requireMember()] as const,
  request: { params: ConversationParams },
  responses: { 200: jsonContent(ConversationSchema, "The conversation"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/conversations
const create = createRoute({
  method: "post",
  path: "/conversations",
  tags,
  summary: "Create a conversation, optionally with a first message",
  middleware: [requireMember({ allowBots: true })] as const,
  request: { params: AccountParams, body: jsonBody(ConversationCreateSchema) },
  responses: { 200: jsonContent(ConversationSchema, "The new conversation"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/conversations/{display_id}
const update = createRoute({
  method: "patch",
  path: "/conversations/{conversation_id}",
  tags,
  summary: "Update priority and attributes of a conversation",
  middleware: [requireMember({ allowBots: true })] as const,
  request: { params: ConversationParams, body: jsonBody(ConversationUpdateSchema) },
  responses: { 200: jsonContent(ConversationSchema, "The conversation"), ...errorResponses },
});

/** The list and its counts: mounted before `/conversations/{conversation_id}` (api/account.ts). */
export const conversationListRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const { counts, rows } = await listConversations(scopeOf(c), c.req.valid("query"));
    const payload = await presentConversations(viewOf(c), rows);
    return c.json({ data: { meta: counts, payload } }, 200);
  })
  .openapi(meta, async (c) => {
    const counts = await countOnly(scopeOf(c), c.req.valid("query"));
    return c.json({ data: { meta: counts } }, 200);
  });

/** One conversation: get, create, update. */
export const conversationAccountRoutes = createRouter<AccountEnv>()
  .openapi(show, async (c) => {
    const scope = scopeOf(c);
    const row = await loadConversationFor(scope, c.req.valid("param").conversation_id);
    return c.json(await presentCurrent(scope, viewOf(c), row), 200);
  })
  .openapi(create, async (c) => {
    const scope = { ...scopeOf(c), origin: c.var.deps.origin };
    const row = await createWithMessage(scope, c.req.valid("json"));
    return c.json(await presentOne(viewOf(c), row), 200);
  })
  .openapi(update, async (c) => {
    const scope = scopeOf(c);
    const current = await loadConversationFor(scope, c.req.valid("param").conversation_id);
    const row = await updateConversation(scope, current, c.req.valid("json"));
    return c.json(await presentOne(viewOf(c), row), 200);
  });
