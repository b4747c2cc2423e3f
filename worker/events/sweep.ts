import { createDb } from "../db/client";
import type { Bindings } from "../env";
import { nowSeconds } from "../lib/time";
import { pruneRuns } from "../modules/automation-rules/queries";
import { enqueueDeliveries } from "../modules/webhooks/dispatch";
import { overdueDeliveryIds } from "../modules/webhooks/queries.deliveries";
import { relayOutbox } from "./outbox";
import { pruneSent, unsentIds } from "./queries";

/** A row younger than this is still being relayed by its own request. */
const RELAY_GRACE_SECONDS = 30;
/** A delivery this far past due lost its queue message (a running attempt holds it 60 s). */
const OVERDUE_SECONDS = 120;
const SWEEP_LIMIT = 1000;
const KEEP_SENT_SECONDS = 7 * 24 * 3600;

export type SweepResult = { events: number; deliveries: number };

/**
 * The cron trigger: re-sends outbox rows whose relay failed and deliveries whose queue message
 * was lost (a delivery already taken by an attempt ignores the duplicate), then prunes rows
 * relayed a week ago and the automation runs of the same age.
 */
export async function sweep(env: Bindings, now = nowSeconds()): Promise<SweepResult> {
  const db = createDb(env.DB);
  const events = await unsentIds(db, now - RELAY_GRACE_SECONDS, SWEEP_LIMIT);
  await relayOutbox(env, db, events, now);
  const deliveries = await overdueDeliveryIds(db, now - OVERDUE_SECONDS, SWEEP_LIMIT);
  await enqueueDeliveries(env, deliveries);
  await pruneSent(db, now - KEEP_SENT_SECONDS);
  // A pruned event is never run again, so its rules' claims can go with it.
  await pruneRuns(db, now - KEEP_SENT_SECONDS);
  return { events: events.length, deliveries: deliveries.length };
}
