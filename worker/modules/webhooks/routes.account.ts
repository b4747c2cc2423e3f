import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { presentDelivery, presentWebhook, presentWebhookEnvelope } from "./presenter";
import { listWebhooks } from "./queries";
import {
  DeliveryListSchema,
  DeliveryParams,
  DeliveryQuery,
  DeliverySchema,
  RedeliveredSchema,
  WebhookCreateSchema,
  WebhookEnvelopeSchema,
  WebhookListSchema,
  WebhookParams,
  WebhookUpdateSchema,
} from "./schema";
import { createWebhook, deleteWebhook, loadWebhook, updateWebhook } from "./service";
import { listDeliveries, redeliver, redeliverFailed } from "./service.deliveries";

const tags = ["Webhooks"];

// Chatwoot: GET /api/v1/accounts/{a}/webhooks
const list = createRoute({
  method: "get",
  path: "/webhooks",
  tags,
  summary: "List the account's webhooks (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams },
  responses: { 200: jsonContent(WebhookListSchema, "The webhooks"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/webhooks
const create = createRoute({
  method: "post",
  path: "/webhooks",
  tags,
  summary: "Create a webhook; the response shows its signing secret (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(unwrapped("webhook", WebhookCreateSchema)) },
  responses: { 200: jsonContent(WebhookEnvelopeSchema, "The new webhook"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/webhooks/{webhook_id}
const update = createRoute({
  method: "patch",
  path: "/webhooks/{webhook_id}",
  tags,
  summary: "E16: update a webhook; omitted fields stay (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: WebhookParams, body: jsonBody(unwrapped("webhook", WebhookUpdateSchema)) },
  responses: { 200: jsonContent(WebhookEnvelopeSchema, "The webhook"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/webhooks/{webhook_id}
const remove = createRoute({
  method: "delete",
  path: "/webhooks/{webhook_id}",
  tags,
  summary: "Delete a webhook and its delivery log (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: WebhookParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

// Chatwoot: none (its webhooks keep no delivery log)
const deliveries = createRoute({
  method: "get",
  path: "/webhooks/{webhook_id}/deliveries",
  tags,
  summary: "The webhook's deliveries, newest first, each with its attempt log (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: WebhookParams, query: DeliveryQuery },
  responses: { 200: jsonContent(DeliveryListSchema, "A page of 25"), ...errorResponses },
});

// Chatwoot: none
const redeliverOne = createRoute({
  method: "post",
  path: "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
  tags,
  summary: "Send one delivery again, with the same delivery id (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: DeliveryParams },
  responses: { 200: jsonContent(DeliverySchema, "The delivery, queued"), ...errorResponses },
});

// Chatwoot: none
const redeliverAll = createRoute({
  method: "post",
  path: "/webhooks/{webhook_id}/redeliver_failed",
  tags,
  summary: "Send the failed deliveries again (up to 1000 per call; administrators)",
  middleware: [requireAdmin] as const,
  request: { params: WebhookParams },
  responses: { 200: jsonContent(RedeliveredSchema, "How many were queued"), ...errorResponses },
});

const webhookOf = (c: { var: AccountEnv["Variables"] }, id: number) =>
  loadWebhook(c.var.deps, c.var.account.id, id);

export const webhookAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const rows = await listWebhooks(c.var.deps.db, c.var.account.id);
    return c.json({ payload: { webhooks: rows.map(presentWebhook) } }, 200);
  })
  .openapi(create, async (c) => {
    const row = await createWebhook(c.var.deps, c.var.account.id, c.req.valid("json"));
    return c.json(presentWebhookEnvelope(row), 200);
  })
  .openapi(update, async (c) => {
    const current = await webhookOf(c, c.req.valid("param").webhook_id);
    const row = await updateWebhook(c.var.deps, current, c.req.valid("json"));
    return c.json(presentWebhookEnvelope(row), 200);
  })
  .openapi(remove, async (c) => {
    await deleteWebhook(c.var.deps, await webhookOf(c, c.req.valid("param").webhook_id));
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  })
  .openapi(deliveries, async (c) => {
    const current = await webhookOf(c, c.req.valid("param").webhook_id);
    const query = c.req.valid("query");
    const page = await listDeliveries(c.var.deps, current, query);
    const meta = { count: page.total, current_page: query.page };
    return c.json({ meta, payload: page.rows.map(presentDelivery) }, 200);
  })
  .openapi(redeliverOne, async (c) => {
    const { webhook_id, delivery_id } = c.req.valid("param");
    const row = await redeliver(c.var.deps, await webhookOf(c, webhook_id), delivery_id);
    return c.json(presentDelivery(row), 200);
  })
  .openapi(redeliverAll, async (c) => {
    const current = await webhookOf(c, c.req.valid("param").webhook_id);
    return c.json({ redelivered: await redeliverFailed(c.var.deps, current) }, 200);
  });
