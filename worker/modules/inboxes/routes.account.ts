import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { clientIp } from "../../http/middleware/rate-limit";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams, accountParams, IdParam } from "../../http/schemas/ids";
import { callerUserId } from "../access-tokens/service";
import type { InboxCaller } from "./policy";
import { presentInbox, presentInboxBot } from "./presenter";
import {
  InboxBotResponseSchema,
  InboxCreateSchema,
  InboxListSchema,
  InboxSchema,
  InboxUpdateSchema,
  SetAgentBotSchema,
} from "./schema";
import {
  createInbox,
  deleteInbox,
  inboxBot,
  listVisibleInboxes,
  loadVisibleInbox,
  setInboxBot,
  updateInbox,
} from "./service";

const tags = ["Inboxes"];

const InboxParams = accountParams({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

// Chatwoot: GET /api/v1/accounts/{a}/inboxes
const list = createRoute({
  method: "get",
  path: "/inboxes",
  tags,
  summary: "List inboxes (agents see the inboxes they are members of)",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: { 200: jsonContent(InboxListSchema, "The inboxes"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/inboxes/{id}
const show = createRoute({
  method: "get",
  path: "/inboxes/{id}",
  tags,
  summary: "Get an inbox",
  middleware: [requireMember()] as const,
  request: { params: InboxParams },
  responses: { 200: jsonContent(InboxSchema, "The inbox"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/inboxes
const create = createRoute({
  method: "post",
  path: "/inboxes",
  tags,
  summary: "Create an API or web widget inbox (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(InboxCreateSchema) },
  responses: { 200: jsonContent(InboxSchema, "The new inbox"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/inboxes/{id}
const update = createRoute({
  method: "patch",
  path: "/inboxes/{id}",
  tags,
  summary: "Update an inbox (administrators)",
  description: "Channel fields go under `channel`; sent flat they are accepted too.",
  middleware: [requireAdmin] as const,
  request: { params: InboxParams, body: jsonBody(InboxUpdateSchema) },
  responses: { 200: jsonContent(InboxSchema, "The inbox"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/inboxes/{id}
const remove = createRoute({
  method: "delete",
  path: "/inboxes/{id}",
  tags,
  summary: "Delete an inbox (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: InboxParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/inboxes/{id}/agent_bot
const showBot = createRoute({
  method: "get",
  path: "/inboxes/{id}/agent_bot",
  tags,
  summary: "Get the agent bot attached to an inbox",
  middleware: [requireMember()] as const,
  request: { params: InboxParams },
  responses: { 200: jsonContent(InboxBotResponseSchema, "The bot, or null"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/inboxes/{id}/set_agent_bot
const setBot = createRoute({
  method: "post",
  path: "/inboxes/{id}/set_agent_bot",
  tags,
  summary: "Attach an agent bot to an inbox, or detach it with null (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: InboxParams, body: jsonBody(SetAgentBotSchema) },
  responses: { 204: { description: "Attached or detached" }, ...errorResponses },
});

function caller(c: Context<AccountEnv>): InboxCaller {
  const actor = c.var.actor;
  return { role: c.var.role, userId: actor.kind === "user" ? actor.user.id : null };
}

const view = (c: Context<AccountEnv>) => ({
  origin: c.var.deps.origin,
  admin: c.var.role === "administrator",
});

const load = (c: Context<AccountEnv>, id: number) =>
  loadVisibleInbox(c.var.deps, c.var.account.id, id, caller(c));

export const inboxAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const rows = await listVisibleInboxes(c.var.deps, c.var.account.id, caller(c));
    return c.json({ payload: rows.map((row) => presentInbox(row, view(c))) }, 200);
  })
  .openapi(show, async (c) => {
    const inbox = await load(c, c.req.valid("param").id);
    return c.json(presentInbox(inbox, view(c)), 200);
  })
  .openapi(create, async (c) => {
    const inbox = await createInbox(c.var.deps, c.var.account.id, c.req.valid("json"));
    return c.json(presentInbox(inbox, view(c)), 200);
  })
  .openapi(update, async (c) => {
    const inbox = await load(c, c.req.valid("param").id);
    const who = { userId: callerUserId(c.var.actor), ip: clientIp(c) };
    const row = await updateInbox(c.var.deps, inbox, c.req.valid("json"), who);
    return c.json(presentInbox(row, view(c)), 200);
  })
  .openapi(remove, async (c) => {
    await deleteInbox(c.var.deps, await load(c, c.req.valid("param").id));
    return c.json({}, 200);
  })
  .openapi(showBot, async (c) => {
    const bot = await inboxBot(c.var.deps, await load(c, c.req.valid("param").id));
    return c.json({ agent_bot: bot ? presentInboxBot(bot) : null }, 200);
  })
  .openapi(setBot, async (c) => {
    const inbox = await load(c, c.req.valid("param").id);
    await setInboxBot(c.var.deps, inbox, c.req.valid("json").agent_bot);
    return c.body(null, 204);
  });
