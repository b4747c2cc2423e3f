import type { DeliveryRow, DeliveryStatus } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { PAGE_SIZE, pageOffset } from "../../http/schemas/pagination";
import { ApiError } from "../../lib/errors";
import { enqueueDeliveries } from "./dispatch";
import type { WebhookWithInbox } from "./queries";
import {
  deliveryPage,
  failedDeliveryIds,
  findDelivery,
  findDeliveryOf,
  requeueDeliveries,
} from "./queries.deliveries";

/** One call redelivers at most this many failed deliveries (call again for more). */
export const REDELIVER_LIMIT = 1000;

/** The webhook's delivery log, newest first. */
export function listDeliveries(
  deps: Deps,
  { webhook }: WebhookWithInbox,
  query: { page: number; status?: DeliveryStatus },
) {
  return deliveryPage(deps.db, webhook.id, {
    status: query.status,
    offset: pageOffset(query.page),
    limit: PAGE_SIZE,
  });
}

async function requeue(deps: Deps, webhook: WebhookWithInbox["webhook"], ids: number[]) {
  if (ids.length === 0) {
    return 0;
  }
  // To the webhook's current URL: a receiver that moved gets its backlog at the new address.
  const requeued = await requeueDeliveries(deps.db, ids, webhook.url, deps.now());
  await enqueueDeliveries(
    deps.env,
    requeued.map((r) => r.id),
  ).catch(() => {
    // Left due in the table: the cron sweep sends what the queue refused.
  });
  return requeued.length;
}

/**
 * Replays one delivery (whatever its state) with the same delivery id, so a receiver that
 * already has it can tell; its attempt log keeps growing.
 */
export async function redeliver(
  deps: Deps,
  current: WebhookWithInbox,
  key: string,
): Promise<DeliveryRow> {
  const found = await findDeliveryOf(deps.db, current.webhook.id, key);
  if (!found) {
    throw new ApiError("not_found");
  }
  await requeue(deps, current.webhook, [found.id]);
  return (await findDelivery(deps.db, found.id)) ?? found;
}

/** Replays the failed deliveries (the oldest REDELIVER_LIMIT), with their delivery ids. */
export async function redeliverFailed(deps: Deps, current: WebhookWithInbox): Promise<number> {
  const ids = await failedDeliveryIds(deps.db, current.webhook.id, REDELIVER_LIMIT);
  return requeue(deps, current.webhook, ids);
}
