import type { Bindings } from "../../env";

/** Queue sendBatch takes at most 100 messages. */
const SEND_CHUNK = 100;

/** One queue message per delivery, so each receiver's retries run on their own schedule. */
export async function enqueueDeliveries(env: Bindings, ids: number[], delaySeconds = 0) {
  for (let i = 0; i < ids.length; i += SEND_CHUNK) {
    await env.EVENTS.sendBatch(
      ids.slice(i, i + SEND_CHUNK).map((id) => ({
        body: { kind: "delivery" as const, id },
        ...(delaySeconds > 0 ? { delaySeconds } : {}),
      })),
    );
  }
}
