import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { countDashboardApps } from "../dashboard-apps/queries";
import { listWebhooks } from "../webhooks/queries";
import { deleteWebhook, loadWebhook } from "../webhooks/service";
import { presentDashboardAppsApp, presentHook, presentWebhookApp } from "./presenter";
import {
  AppListSchema,
  HookCreateSchema,
  HookParams,
  HookSchema,
  HookUpdateSchema,
} from "./schema";
import { createHook, updateHook } from "./service";

const tags = ["Integrations"];
const DOCS = "See docs/webhooks.md (Integrations).";

// Chatwoot: GET /api/v1/accounts/{a}/integrations/apps
const apps = createRoute({
  method: "get",
  path: "/integrations/apps",
  tags,
  summary: "The integration apps Parley runs, with the account's hooks",
  description:
    "`webhook`, whose hooks are the account's webhooks, and `dashboard_apps` (made at " +
    "…/dashboard_apps, no hooks). Chatwoot's third-party apps (Slack, Dialogflow, OpenAI…) are " +
    `not offered. Hook settings are shown to administrators. ${DOCS}`,
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: { 200: jsonContent(AppListSchema, "The apps"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/integrations/hooks
const create = createRoute({
  method: "post",
  path: "/integrations/hooks",
  tags,
  summary: "Create a hook: a webhook of the account (administrators)",
  description: `\`app_id\` must be \`webhook\`; any other app is a 422 naming why. ${DOCS}`,
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(HookCreateSchema) },
  responses: { 200: jsonContent(HookSchema, "The hook"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/integrations/hooks/{hook_id}
const update = createRoute({
  method: "patch",
  path: "/integrations/hooks/{hook_id}",
  tags,
  summary: "Update a hook's status or settings (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: HookParams, body: jsonBody(HookUpdateSchema) },
  responses: { 200: jsonContent(HookSchema, "The hook"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/integrations/hooks/{hook_id}
const remove = createRoute({
  method: "delete",
  path: "/integrations/hooks/{hook_id}",
  tags,
  summary: "Delete a hook, and so its webhook (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: HookParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

const hookOf = (c: { var: AccountEnv["Variables"] }, id: number) =>
  loadWebhook(c.var.deps, c.var.account.id, id);

export const integrationAccountRoutes = createRouter<AccountEnv>()
  .openapi(apps, async (c) => {
    const db = c.var.deps.db;
    const [webhooks, dashboardApps] = await Promise.all([
      listWebhooks(db, c.var.account.id),
      countDashboardApps(db, c.var.account.id),
    ]);
    const admin = c.var.role === "administrator";
    const payload = [presentWebhookApp(webhooks, admin), presentDashboardAppsApp(dashboardApps)];
    return c.json({ payload }, 200);
  })
  .openapi(create, async (c) => {
    const row = await createHook(c.var.deps, c.var.account.id, c.req.valid("json"));
    return c.json(presentHook(row, true), 200);
  })
  .openapi(update, async (c) => {
    const current = await hookOf(c, c.req.valid("param").hook_id);
    return c.json(
      presentHook(await updateHook(c.var.deps, current, c.req.valid("json")), true),
      200,
    );
  })
  .openapi(remove, async (c) => {
    await deleteWebhook(c.var.deps, await hookOf(c, c.req.valid("param").hook_id));
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
