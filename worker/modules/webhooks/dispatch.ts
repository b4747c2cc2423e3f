import type { Bindings } from "../../env";
import { sendToQueue } from "../../events/queue-messages";

/** One queue message per delivery, so each receiver's retries run on their own schedule. */
export const enqueueDeliveries = (env: Bindings, ids: number[], delaySeconds = 0) =>
  sendToQueue(env.EVENTS, "delivery", ids, { delaySeconds });
