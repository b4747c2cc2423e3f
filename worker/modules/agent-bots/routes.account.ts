import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams, accountParams, idParams } from "../../http/schemas/ids";
import { presentAgentBot } from "./presenter";
import { listBotsUsableIn } from "./queries";
import {
  AgentBotCreateSchema,
  AgentBotListSchema,
  AgentBotSchema,
  AgentBotUpdateSchema,
} from "./schema";
import { createBot, deleteBot, findAccountBot, resetBotToken, updateBot } from "./service";

const tags = ["Agent bots"];
const BotParams = accountParams(idParams.shape);
const botResponse = jsonContent(AgentBotSchema, "The agent bot");
const viewer = (c: { var: AccountEnv["Variables"] }) =>
  c.var.role === "administrator" ? "administrator" : "agent";

// Chatwoot: GET /api/v1/accounts/{a}/agent_bots
const list = createRoute({
  method: "get",
  path: "/agent_bots",
  tags,
  summary: "List the account's agent bots and the system bots",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: { 200: jsonContent(AgentBotListSchema, "Agent bots"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/agent_bots/{id}
const show = createRoute({
  method: "get",
  path: "/agent_bots/{id}",
  tags,
  summary: "Get an agent bot (E15)",
  middleware: [requireMember()] as const,
  request: { params: BotParams },
  responses: { 200: botResponse, ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/agent_bots
const create = createRoute({
  method: "post",
  path: "/agent_bots",
  tags,
  summary: "Create an agent bot in the account (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(AgentBotCreateSchema) },
  responses: { 200: botResponse, ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/agent_bots/{id}
const update = createRoute({
  method: "patch",
  path: "/agent_bots/{id}",
  tags,
  summary: "Update one of the account's agent bots (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: BotParams, body: jsonBody(AgentBotUpdateSchema) },
  responses: { 200: botResponse, ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/agent_bots/{id}
const remove = createRoute({
  method: "delete",
  path: "/agent_bots/{id}",
  tags,
  summary: "Delete one of the account's agent bots (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: BotParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/agent_bots/{id}/reset_access_token
const resetToken = createRoute({
  method: "post",
  path: "/agent_bots/{id}/reset_access_token",
  tags,
  summary: "Replace the bot's access token (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: BotParams },
  responses: { 200: botResponse, ...errorResponses },
});

export const agentBotAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const rows = await listBotsUsableIn(c.var.deps.db, c.var.account.id);
    return c.json(
      rows.map((row) => presentAgentBot(row, viewer(c))),
      200,
    );
  })
  .openapi(show, async (c) => {
    const row = await findAccountBot(c.var.deps, c.var.account.id, c.req.valid("param").id);
    return c.json(presentAgentBot(row, viewer(c)), 200);
  })
  .openapi(create, async (c) => {
    const row = await createBot(c.var.deps, c.req.valid("json"), { accountId: c.var.account.id });
    return c.json(presentAgentBot(row, "administrator"), 200);
  })
  .openapi(update, async (c) => {
    const { id } = c.req.valid("param");
    const current = await findAccountBot(c.var.deps, c.var.account.id, id, { toChange: true });
    const row = await updateBot(c.var.deps, current, c.req.valid("json"));
    return c.json(presentAgentBot(row, "administrator"), 200);
  })
  .openapi(remove, async (c) => {
    const { id } = c.req.valid("param");
    const current = await findAccountBot(c.var.deps, c.var.account.id, id, { toChange: true });
    await deleteBot(c.var.deps, current.bot);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  })
  .openapi(resetToken, async (c) => {
    const { id } = c.req.valid("param");
    const current = await findAccountBot(c.var.deps, c.var.account.id, id, { toChange: true });
    const row = await resetBotToken(c.var.deps, current);
    return c.json(presentAgentBot(row, "administrator"), 200);
  });
