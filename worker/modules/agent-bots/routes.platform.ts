import { createRoute, type z } from "@hono/zod-openapi";
import type { PlatformEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { idParams } from "../../http/schemas/ids";
import { presentPlatformAgentBot } from "./presenter";
import { listBotsOfPlatformApp } from "./queries";
import {
  PlatformAgentBotCreateSchema,
  PlatformAgentBotListSchema,
  PlatformAgentBotSchema,
  PlatformAgentBotUpdateSchema,
} from "./schema";
import {
  assertBotAccountAllowed,
  createBot,
  deleteBot,
  findPlatformBot,
  updateBot,
} from "./service";

const tags = ["Platform: agent bots"];
const botResponse = jsonContent(PlatformAgentBotSchema, "The agent bot");

// Chatwoot: GET /platform/api/v1/agent_bots
const list = createRoute({
  method: "get",
  path: "/agent_bots",
  tags,
  summary: "List the agent bots this app created",
  responses: { 200: jsonContent(PlatformAgentBotListSchema, "Agent bots"), ...errorResponses },
});

// Chatwoot: POST /platform/api/v1/agent_bots
const create = createRoute({
  method: "post",
  path: "/agent_bots",
  tags,
  summary: "Create an agent bot (a system bot unless account_id is given)",
  request: { body: jsonBody(PlatformAgentBotCreateSchema) },
  responses: { 200: botResponse, ...errorResponses },
});

// Chatwoot: GET /platform/api/v1/agent_bots/{id}
const show = createRoute({
  method: "get",
  path: "/agent_bots/{id}",
  tags,
  summary: "Get an agent bot",
  request: { params: idParams },
  responses: { 200: botResponse, ...errorResponses },
});

// Chatwoot: PATCH /platform/api/v1/agent_bots/{id}
const update = createRoute({
  method: "patch",
  path: "/agent_bots/{id}",
  tags,
  summary: "Update an agent bot",
  request: { params: idParams, body: jsonBody(PlatformAgentBotUpdateSchema) },
  responses: { 200: botResponse, ...errorResponses },
});

// Chatwoot: DELETE /platform/api/v1/agent_bots/{id}
const remove = createRoute({
  method: "delete",
  path: "/agent_bots/{id}",
  tags,
  summary: "Delete an agent bot, its token and its inbox attachments",
  request: { params: idParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

export const agentBotPlatformRoutes = createRouter<PlatformEnv>()
  .openapi(list, async (c) => {
    const rows = await listBotsOfPlatformApp(c.var.deps.db, c.var.platformAppId);
    return c.json(rows.map(presentPlatformAgentBot), 200);
  })
  .openapi(create, async (c) => {
    const input = c.req.valid("json");
    const { platformAppId, deps } = c.var;
    await assertBotAccountAllowed(deps, platformAppId, input.account_id);
    const row = await createBot(deps, input, { platformAppId });
    return c.json(presentPlatformAgentBot(row), 200);
  })
  .openapi(show, async (c) => {
    const row = await findPlatformBot(c.var.deps, c.var.platformAppId, c.req.valid("param").id);
    return c.json(presentPlatformAgentBot(row), 200);
  })
  .openapi(update, async (c) => {
    const input = c.req.valid("json");
    const { platformAppId, deps } = c.var;
    const current = await findPlatformBot(deps, platformAppId, c.req.valid("param").id);
    await assertBotAccountAllowed(deps, platformAppId, input.account_id);
    return c.json(presentPlatformAgentBot(await updateBot(deps, current, input)), 200);
  })
  .openapi(remove, async (c) => {
    const row = await findPlatformBot(c.var.deps, c.var.platformAppId, c.req.valid("param").id);
    await deleteBot(c.var.deps, row.bot);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
