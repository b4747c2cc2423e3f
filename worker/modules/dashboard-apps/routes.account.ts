import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { ApiError } from "../../lib/errors";
import { presentDashboardApp } from "./presenter";
import { listDashboardApps } from "./queries";
import {
  DashboardAppCreateSchema,
  DashboardAppListSchema,
  DashboardAppParams,
  DashboardAppSchema,
  DashboardAppUpdateSchema,
} from "./schema";
import {
  createDashboardApp,
  deleteDashboardApp,
  loadDashboardApp,
  updateDashboardApp,
} from "./service";

// Chatwoot's DashboardAppPolicy: every member reads, administrators write. Bots are refused.
const tags = ["Dashboard Apps"];
const DOCS = "See docs/agent-tools.md (Dashboard apps).";

// Chatwoot: GET /api/v1/accounts/{a}/dashboard_apps
const list = createRoute({
  method: "get",
  path: "/dashboard_apps",
  tags,
  summary: "List the account's dashboard apps, oldest first",
  description: `Each is a tab beside the conversation in the agents' app. ${DOCS}`,
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: { 200: jsonContent(DashboardAppListSchema, "The apps"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/dashboard_apps/{id}
const show = createRoute({
  method: "get",
  path: "/dashboard_apps/{id}",
  tags,
  summary: "Get a dashboard app",
  middleware: [requireMember()] as const,
  request: { params: DashboardAppParams },
  responses: { 200: jsonContent(DashboardAppSchema, "The app"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/dashboard_apps
const create = createRoute({
  method: "post",
  path: "/dashboard_apps",
  tags,
  summary: "Create a dashboard app (administrators)",
  description:
    '`content` is 1-5 frames `{type: "frame", url}`: https URLs, or http on localhost for ' +
    `development, not on this service's own address. At most 20 apps per account. ${DOCS}`,
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(DashboardAppCreateSchema) },
  responses: { 200: jsonContent(DashboardAppSchema, "The new app"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/dashboard_apps/{id}
const update = createRoute({
  method: "patch",
  path: "/dashboard_apps/{id}",
  tags,
  summary: "Update a dashboard app's title or frames (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: DashboardAppParams, body: jsonBody(DashboardAppUpdateSchema) },
  responses: { 200: jsonContent(DashboardAppSchema, "The app"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/dashboard_apps/{id} (204 there; 200 {} like every delete here)
const remove = createRoute({
  method: "delete",
  path: "/dashboard_apps/{id}",
  tags,
  summary: "Delete a dashboard app (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: DashboardAppParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

const load = (c: Context<AccountEnv>, id: number) =>
  loadDashboardApp(c.var.deps, c.var.account.id, id);

/** Administrators are users (requireAdmin refuses bots): the creator recorded. */
function creatorOf(c: Context<AccountEnv>): number {
  const actor = c.var.actor;
  if (actor.kind !== "user") {
    throw new ApiError("not_authorized_for_bots");
  }
  return actor.user.id;
}

export const dashboardAppAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const rows = await listDashboardApps(c.var.deps.db, c.var.account.id);
    return c.json(rows.map(presentDashboardApp), 200);
  })
  .openapi(show, async (c) =>
    c.json(presentDashboardApp(await load(c, c.req.valid("param").id)), 200),
  )
  .openapi(create, async (c) => {
    const input = c.req.valid("json");
    const row = await createDashboardApp(c.var.deps, c.var.account.id, creatorOf(c), input);
    return c.json(presentDashboardApp(row), 200);
  })
  .openapi(update, async (c) => {
    const current = await load(c, c.req.valid("param").id);
    const row = await updateDashboardApp(c.var.deps, current, c.req.valid("json"));
    return c.json(presentDashboardApp(row), 200);
  })
  .openapi(remove, async (c) => {
    await deleteDashboardApp(c.var.deps, await load(c, c.req.valid("param").id));
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
