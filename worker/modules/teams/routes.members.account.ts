import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { presentAgent } from "../agents/presenter";
import { AgentListSchema } from "../agents/schema";
import { TeamMembersBodySchema, TeamParams } from "./schema";
import {
  addTeamMembers,
  listTeamMembers,
  loadTeam,
  removeTeamMembers,
  replaceTeamMembers,
} from "./service";

const tags = ["Teams"];
const path = "/teams/{team_id}/team_members";

// Chatwoot: GET /api/v1/accounts/{a}/teams/{team_id}/team_members
const list = createRoute({
  method: "get",
  path,
  tags,
  summary: "List the agents of a team",
  middleware: [requireMember()] as const,
  request: { params: TeamParams },
  responses: { 200: jsonContent(AgentListSchema, "The team's agents"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/teams/{team_id}/team_members
const add = createRoute({
  method: "post",
  path,
  tags,
  summary: "Add agents to a team (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: TeamParams, body: jsonBody(TeamMembersBodySchema) },
  responses: {
    200: jsonContent(AgentListSchema, "The listed agents, now members"),
    ...errorResponses,
  },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/teams/{team_id}/team_members
const replace = createRoute({
  method: "patch",
  path,
  tags,
  summary: "Replace a team's agents (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: TeamParams, body: jsonBody(TeamMembersBodySchema) },
  responses: {
    200: jsonContent(AgentListSchema, "The team's agents after the change"),
    ...errorResponses,
  },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/teams/{team_id}/team_members
const remove = createRoute({
  method: "delete",
  path,
  tags,
  summary: "Remove agents from a team (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: TeamParams, body: jsonBody(TeamMembersBodySchema) },
  responses: { 200: jsonContent(DeletedSchema, "Removed"), ...errorResponses },
});

export const teamMemberAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const team = await loadTeam(c.var.deps, c.var.account.id, c.req.valid("param").team_id);
    return c.json((await listTeamMembers(c.var.deps, team)).map(presentAgent), 200);
  })
  .openapi(add, async (c) => {
    const team = await loadTeam(c.var.deps, c.var.account.id, c.req.valid("param").team_id);
    const members = await addTeamMembers(c.var.deps, team, c.req.valid("json").user_ids);
    return c.json(members.map(presentAgent), 200);
  })
  .openapi(replace, async (c) => {
    const team = await loadTeam(c.var.deps, c.var.account.id, c.req.valid("param").team_id);
    const members = await replaceTeamMembers(c.var.deps, team, c.req.valid("json").user_ids);
    return c.json(members.map(presentAgent), 200);
  })
  .openapi(remove, async (c) => {
    const team = await loadTeam(c.var.deps, c.var.account.id, c.req.valid("param").team_id);
    await removeTeamMembers(c.var.deps, team, c.req.valid("json").user_ids);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
