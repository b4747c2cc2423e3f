import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { callerUserId } from "../access-tokens/service";
import { presentTeam } from "./presenter";
import {
  TeamCreateSchema,
  TeamListSchema,
  TeamParams,
  TeamSchema,
  TeamUpdateSchema,
} from "./schema";
import {
  createTeam,
  deleteTeam,
  isTeamMember,
  listTeamsFor,
  loadTeam,
  updateTeam,
} from "./service";

const tags = ["Teams"];

// Chatwoot: GET /api/v1/accounts/{a}/teams
const list = createRoute({
  method: "get",
  path: "/teams",
  tags,
  summary: "List the account's teams",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: { 200: jsonContent(TeamListSchema, "Every team of the account"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/teams/{id}
const show = createRoute({
  method: "get",
  path: "/teams/{team_id}",
  tags,
  summary: "Get a team",
  middleware: [requireMember()] as const,
  request: { params: TeamParams },
  responses: { 200: jsonContent(TeamSchema, "The team"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/teams
const create = createRoute({
  method: "post",
  path: "/teams",
  tags,
  summary: "Create a team (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(unwrapped("team", TeamCreateSchema)) },
  responses: { 200: jsonContent(TeamSchema, "The new team"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/teams/{id}
const update = createRoute({
  method: "patch",
  path: "/teams/{team_id}",
  tags,
  summary: "Update a team (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: TeamParams, body: jsonBody(unwrapped("team", TeamUpdateSchema)) },
  responses: { 200: jsonContent(TeamSchema, "The updated team"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/teams/{id}
const remove = createRoute({
  method: "delete",
  path: "/teams/{team_id}",
  tags,
  summary: "Delete a team and its memberships (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: TeamParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

export const teamAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const caller = callerUserId(c.var.actor);
    const { teams, memberOf } = await listTeamsFor(c.var.deps, c.var.account.id, caller);
    return c.json(
      teams.map((t) => presentTeam(t, memberOf.has(t.id))),
      200,
    );
  })
  .openapi(show, async (c) => {
    const team = await loadTeam(c.var.deps, c.var.account.id, c.req.valid("param").team_id);
    const isMember = await isTeamMember(c.var.deps, team, callerUserId(c.var.actor));
    return c.json(presentTeam(team, isMember), 200);
  })
  .openapi(create, async (c) => {
    const team = await createTeam(c.var.deps, c.var.account.id, c.req.valid("json"));
    return c.json(presentTeam(team, false), 200);
  })
  .openapi(update, async (c) => {
    const current = await loadTeam(c.var.deps, c.var.account.id, c.req.valid("param").team_id);
    const team = await updateTeam(c.var.deps, current, c.req.valid("json"));
    const isMember = await isTeamMember(c.var.deps, team, callerUserId(c.var.actor));
    return c.json(presentTeam(team, isMember), 200);
  })
  .openapi(remove, async (c) => {
    const team = await loadTeam(c.var.deps, c.var.account.id, c.req.valid("param").team_id);
    await deleteTeam(c.var.deps, team);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
