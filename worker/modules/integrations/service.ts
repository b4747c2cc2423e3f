import type { Deps } from "../../events/deps";
import { invalidField } from "../../lib/errors";
import { disableWebhook, type WebhookWithInbox } from "../webhooks/queries";
import { createWebhook, loadWebhook, updateWebhook } from "../webhooks/service";
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

/** Status 0: the webhook stops receiving (as after a 410 Gone) until a hook update enables it. */
async function disabled(deps: Deps, row: WebhookWithInbox): Promise<WebhookWithInbox> {
  await disableWebhook(deps.db, row.webhook.id, deps.now());
  return loadWebhook(deps, row.webhook.accountId, row.webhook.id);
}

/** A hook of the webhook app is a webhook of the account: every rule of webhooks applies. */
export async function createHook(
  deps: Deps,
  accountId: number,
  input: HookCreate,
): Promise<WebhookWithInbox> {
  assertOffered(input.app_id);
  const row = await createWebhook(deps, accountId, {
    ...input.settings,
    inbox_id: input.inbox_id,
  });
  return input.status === false ? disabled(deps, row) : row;
}

/** Settings change the webhook; status 1 enables it, 0 disables it, none keeps it as it is. */
export async function updateHook(
  deps: Deps,
  current: WebhookWithInbox,
  input: HookUpdate,
): Promise<WebhookWithInbox> {
  const wasEnabled = current.webhook.disabledAt === null;
  const enable = input.status ?? wasEnabled;
  let row = current;
  if (input.settings !== undefined || (enable && !wasEnabled)) {
    row = await updateWebhook(deps, current, input.settings ?? {}); // enables it
  }
  return enable || (!wasEnabled && input.settings === undefined) ? row : disabled(deps, row);
}
