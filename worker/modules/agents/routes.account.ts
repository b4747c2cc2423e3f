import { createRoute } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams, accountParams, IdParam } from "../../http/schemas/ids";
import { ApiError } from "../../lib/errors";
import { presentAgent } from "./presenter";
import { listAgents } from "./queries";
import { AgentCreateSchema, AgentListSchema, AgentSchema, AgentUpdateSchema } from "./schema";
import { addAgent, removeAgent, updateAgent } from "./service";

const tags = ["Agents"];

const AgentParams = accountParams({
  id: IdParam.openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

// Chatwoot: GET /api/v1/accounts/{a}/agents
const list = createRoute({
  method: "get",
  path: "/agents",
  tags,
  summary: "List the account's agents",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: {
    200: jsonContent(AgentListSchema, "Every member of the account"),
    ...errorResponses,
  },
});

// Chatwoot: POST /api/v1/accounts/{a}/agents
const create = createRoute({
  method: "post",
  path: "/agents",
  tags,
  summary: "Add an agent to the account (administrators)",
  description:
    "A new email: the user is created (unconfirmed) and mailed a link to choose a password. " +
    "An email that already has a user: that user is mailed an invitation and joins when they " +
    "accept; the answer shows only what was sent, nothing of the user's record.",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(AgentCreateSchema) },
  responses: { 200: jsonContent(AgentSchema, "The new agent"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/agents/{id}
const update = createRoute({
  method: "patch",
  path: "/agents/{id}",
  tags,
  summary: "Update an agent (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AgentParams, body: jsonBody(AgentUpdateSchema) },
  responses: { 200: jsonContent(AgentSchema, "The agent"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/agents/{id}
const remove = createRoute({
  method: "delete",
  path: "/agents/{id}",
  tags,
  summary: "Remove an agent from the account (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AgentParams },
  responses: { 200: jsonContent(DeletedSchema, "Removed"), ...errorResponses },
});

/** requireAdmin has already refused bots, so the actor is a user. */
function actingUser(actor: AccountEnv["Variables"]["actor"]) {
  if (actor.kind !== "user") {
    throw new ApiError("forbidden");
  }
  return actor.user;
}

export const agentAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const rows = await listAgents(c.var.deps.db, c.var.account.id);
    return c.json(rows.map(presentAgent), 200);
  })
  .openapi(create, async (c) => {
    const inviting = { account: c.var.account, inviter: actingUser(c.var.actor) };
    const row = await addAgent(c.var.deps, inviting, c.req.valid("json"));
    return c.json(presentAgent(row), 200);
  })
  .openapi(update, async (c) => {
    const { id } = c.req.valid("param");
    const row = await updateAgent(c.var.deps, c.var.account.id, id, c.req.valid("json"));
    return c.json(presentAgent(row), 200);
  })
  .openapi(remove, async (c) => {
    await removeAgent(c.var.deps, c.var.account.id, c.req.valid("param").id);
    return c.json({}, 200);
  });
