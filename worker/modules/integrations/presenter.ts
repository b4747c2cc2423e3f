import type { z } from "@hono/zod-openapi";
import type { WebhookEventName } from "../../events/names";
import type { WebhookWithInbox } from "../webhooks/queries";
import { DASHBOARD_APPS_APP, WEBHOOK_APP } from "./apps";
import type { AppSchema, HookSchema } from "./schema";

/** A webhook as a hook of the webhook app; its settings for administrators only (Chatwoot). */
export function presentHook(
  { webhook, inboxName }: WebhookWithInbox,
  admin: boolean,
): z.infer<typeof HookSchema> {
  return {
    id: webhook.id,
    app_id: "webhook",
    status: webhook.disabledAt === null,
    inbox: webhook.inboxId === null ? null : { id: webhook.inboxId, name: inboxName ?? "" },
    inbox_id: webhook.inboxId,
    account_id: webhook.accountId,
    hook_type: "account",
    ...(admin
      ? {
          settings: {
            url: webhook.url,
            name: webhook.name,
            subscriptions: webhook.subscriptions as WebhookEventName[],
          },
        }
      : {}),
  };
}

export const presentWebhookApp = (
  webhooks: WebhookWithInbox[],
  admin: boolean,
): z.infer<typeof AppSchema> => ({
  ...WEBHOOK_APP,
  enabled: webhooks.length > 0,
  hooks: webhooks.map((w) => presentHook(w, admin)),
});

/** Chatwoot: enabled once the account has a dashboard app; its apps are not hooks. */
export const presentDashboardAppsApp = (count: number): z.infer<typeof AppSchema> => ({
  ...DASHBOARD_APPS_APP,
  enabled: count > 0,
  hooks: [],
});
