import type { z } from "@hono/zod-openapi";
import type { DeliveryRow } from "../../db/schema";
import type { WebhookEventName } from "../../events/names";
import type { WebhookWithInbox } from "./queries";
import type { DeliverySchema, WebhookJson } from "./schema";

/** The webhook record (administrators only, so the secret is always shown). */
export function presentWebhook({ webhook, inboxName }: WebhookWithInbox): WebhookJson {
  return {
    id: webhook.id,
    account_id: webhook.accountId,
    name: webhook.name,
    url: webhook.url,
    subscriptions: webhook.subscriptions as WebhookEventName[],
    inbox: webhook.inboxId === null ? null : { id: webhook.inboxId, name: inboxName ?? "" },
    secret: webhook.secret,
    disabled_at: webhook.disabledAt,
    created_at: webhook.createdAt,
    updated_at: webhook.updatedAt,
  };
}

/** Create and update: the record, and Chatwoot's `{payload: {webhook}}` around it. */
export const presentWebhookEnvelope = (row: WebhookWithInbox) => {
  const webhook = presentWebhook(row);
  return { ...webhook, payload: { webhook } };
};

export function presentDelivery(row: DeliveryRow): z.infer<typeof DeliverySchema> {
  return {
    id: row.id,
    delivery_id: row.deliveryId,
    event: row.event,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    attempt_log: row.attemptLog,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    last_latency_ms: row.lastLatencyMs,
    next_attempt_at: row.nextAttemptAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
