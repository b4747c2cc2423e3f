import { z } from "@hono/zod-openapi";
import { DELIVERY_STATUSES } from "../../db/schema";
import { WEBHOOK_EVENTS } from "../../events/names";
import { accountParams, IdParam } from "../../http/schemas/ids";
import { PageWithDefault } from "../../http/schemas/pagination";

export const WebhookParams = accountParams({
  webhook_id: IdParam.openapi({
    param: { name: "webhook_id", in: "path" },
    type: "integer",
    example: "1",
  }),
});

export const DeliveryParams = WebhookParams.extend({
  delivery_id: z
    .string()
    .min(1)
    .max(64)
    .openapi({
      param: { name: "delivery_id", in: "path" },
      description: "The delivery's numeric id, or its X-Service-Delivery id",
      example: "1",
    }),
});

/** Chatwoot's default when subscriptions are omitted: everything but typing. */
export const DEFAULT_SUBSCRIPTIONS = WEBHOOK_EVENTS.filter(
  (e) => !e.startsWith("conversation_typing"),
);

export const WebhookSchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    name: z.string().nullable(),
    url: z.string().openapi({ example: "https://example.com/webhook" }),
    subscriptions: z.array(z.enum(WEBHOOK_EVENTS)),
    inbox: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    secret: z.string().openapi({
      description:
        "whsec_ + base64 of 32 random bytes; signs every delivery (see docs/webhooks.md)",
    }),
    disabled_at: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Set when the receiver answered 410 Gone; any update re-enables" }),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi("Webhook");

export type WebhookJson = z.infer<typeof WebhookSchema>;

/** Chatwoot answers `{payload: {webhook}}`; the spec's E16 the bare record: both are here. */
export const WebhookEnvelopeSchema = WebhookSchema.extend({
  payload: z.object({ webhook: WebhookSchema }),
}).openapi("WebhookEnvelope");

export const WebhookListSchema = z
  .object({ payload: z.object({ webhooks: z.array(WebhookSchema) }) })
  .openapi("WebhookList");

const subscriptions = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, "must name at least one event")
  .max(WEBHOOK_EVENTS.length * 2)
  .openapi({ example: ["conversation_created", "message_created"] });

const fields = {
  url: z.string().trim().min(1).max(2048).openapi({ example: "https://example.com/webhook" }),
  name: z.string().trim().max(255).nullable().optional(),
  subscriptions: subscriptions.optional(),
  inbox_id: z
    .number()
    .int()
    .positive()
    .nullable()
    .optional()
    .openapi({ description: "Only this inbox's events (none: the whole account)" }),
};

export const WebhookCreateSchema = z.object(fields).openapi("WebhookCreate");
export const WebhookUpdateSchema = z
  .object({ ...fields, url: fields.url.optional() })
  .openapi("WebhookUpdate");

export type WebhookCreate = z.infer<typeof WebhookCreateSchema>;
export type WebhookUpdate = z.infer<typeof WebhookUpdateSchema>;

export const AttemptSchema = z.object({
  at: z.number().int(),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  error: z.string().nullable(),
});

export const DeliverySchema = z
  .object({
    id: z.number().int(),
    delivery_id: z.string().openapi({ description: "X-Service-Delivery and webhook-id" }),
    event: z.string().openapi({ example: "message_created" }),
    url: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int().openapi({ description: "Attempts since it was (re)queued" }),
    attempt_log: z.array(AttemptSchema).openapi({ description: "Every attempt, oldest first" }),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    last_latency_ms: z.number().int().nullable(),
    next_attempt_at: z.number().int().nullable(),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi("WebhookDelivery");

export const DeliveryQuery = z.object({
  page: PageWithDefault,
  status: z.enum(DELIVERY_STATUSES).optional(),
});

export const DeliveryListSchema = z
  .object({
    meta: z.object({ count: z.number().int(), current_page: z.number().int() }),
    payload: z.array(DeliverySchema),
  })
  .openapi("WebhookDeliveryList");

export const RedeliveredSchema = z
  .object({ redelivered: z.number().int() })
  .openapi("WebhookRedelivered");
