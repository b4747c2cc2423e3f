import { createDb } from "../../db/client";
import type { Bindings } from "../../env";
import { sendToQueue } from "../../events/queue-messages";
import { overdueDeliveryIds } from "./queries.deliveries";

/** A delivery this far past due lost its queue message (a running attempt holds it 60 s). */
const OVERDUE_SECONDS = 120;
const SWEEP_LIMIT = 1000;

/** One queue message per delivery, so each receiver's retries run on their own schedule. */
export const enqueueDeliveries = (env: Bindings, ids: number[], delaySeconds = 0) =>
  sendToQueue(env.EVENTS, "delivery", ids, { delaySeconds });

/**
 * Cron sweep task: deliveries whose queue message was lost go out again (a delivery already
 * taken by an attempt ignores the duplicate).
 */
export async function resendOverdueDeliveries(env: Bindings, now: number): Promise<number> {
  const ids = await overdueDeliveryIds(createDb(env.DB), now - OVERDUE_SECONDS, SWEEP_LIMIT);
  await enqueueDeliveries(env, ids);
  return ids.length;
}
