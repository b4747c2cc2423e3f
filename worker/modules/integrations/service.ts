import type { Deps } from "../../events/deps";
import { invalidField } from "../../lib/errors";
import type { WebhookWithInbox } from "../webhooks/queries";
import { createWebhook, updateWebhook } from "../webhooks/service";
import { DASHBOARD_APPS_APP, UNAVAILABLE_APPS, WEBHOOK_APP } from "./apps";
import type { HookCreate, HookUpdate } from "./schema";

/** Only the webhook app takes hooks; any other app_id is refused, with the reason. */
function assertOffered(appId: string): void {
  if (appId === WEBHOOK_APP.id) {
    return;
  }
  if (appId === DASHBOARD_APPS_APP.id) {
    throw invalidField(
      "app_id",
      "takes no hooks: dashboard apps are made at /api/v1/accounts/{id}/dashboard_apps",
    );
  }
  const service = UNAVAILABLE_APPS[appId];
  throw invalidField(
    "app_id",
    service
      ? `is not available in Parley: it needs ${service}, which this service does not connect to`
      : `is not an integration app (Parley offers: ${WEBHOOK_APP.id})`,
  );
}

/**
 * A hook of the webhook app is a webhook of the account: every rule of webhooks applies. Status
 * 0 stores it disabled (it receives nothing, as after a 410 Gone) in the same write.
 */
export async function createHook(
  deps: Deps,
  accountId: number,
  input: HookCreate,
): Promise<WebhookWithInbox> {
  assertOffered(input.app_id);
  return createWebhook(
    deps,
    accountId,
    { ...input.settings, inbox_id: input.inbox_id },
    { disabled: input.status === false },
  );
}

/**
 * Settings change the webhook; status 1 enables it, 0 disables it, none keeps it as it is. One
 * write: the settings and the new state together (none when nothing changes).
 */
export async function updateHook(
  deps: Deps,
  current: WebhookWithInbox,
  input: HookUpdate,
): Promise<WebhookWithInbox> {
  const disabledAt = current.webhook.disabledAt;
  const enable = input.status ?? disabledAt === null;
  if (input.settings === undefined && enable === (disabledAt === null)) {
    return current;
  }
  // Kept disabled since when it was; newly disabled from now; enabled: null.
  const next = enable ? null : (disabledAt ?? deps.now());
  return updateWebhook(deps, current, input.settings ?? {}, { disabledAt: next });
}
