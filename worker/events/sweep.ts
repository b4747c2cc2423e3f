import { createDb } from "../db/client";
import type { Bindings } from "../env";
import { nowSeconds } from "../lib/time";
import { pruneSent, undoneIds, unsentIds } from "./queries";
import { handlers } from "./registry";
import { relayOutbox } from "./relay";

/** A row younger than this is still being relayed by its own request. */
const RELAY_GRACE_SECONDS = 30;
const SWEEP_LIMIT = 1000;
/**
 * A relayed event whose listeners have not run this long after is relayed again: its queue
 * message was lost (a local `wrangler dev` keeps queues in memory, so a crash loses them) or the
 * queue gave up on it (10 retries, about 25 minutes). OUTBOX_REDELIVER_SECONDS overrides it.
 */
const REDELIVER_SECONDS = 1800;
/** Relayed again at most this many times (the window is this many waits after its creation). */
const REDELIVER_ROUNDS = 4;

/** The wait before an unprocessed event is relayed again: OUTBOX_REDELIVER_SECONDS, 10 s–1 day. */
export function redeliverSeconds(env: Bindings): number {
  const n = Number(env.OUTBOX_REDELIVER_SECONDS);
  return Number.isInteger(n) && n >= 10 && n <= 86_400 ? n : REDELIVER_SECONDS;
}
/** Relayed rows are kept a week for inspection; registered tasks prune with the same horizon. */
export const KEEP_SENT_SECONDS = 7 * 24 * 3600;

export type SweepResult = { events: number } & Record<string, number>;

/**
 * The cron trigger: re-sends outbox rows whose relay failed and relayed rows whose listeners
 * never ran, prunes rows relayed a week ago, then runs the registered sweep tasks (lost
 * deliveries, old automation claims).
 */
export async function sweep(env: Bindings, now = nowSeconds()): Promise<SweepResult> {
  const db = createDb(env.DB);
  const events = await unsentIds(db, now - RELAY_GRACE_SECONDS, SWEEP_LIMIT);
  await relayOutbox(env, db, events, now);
  const wait = redeliverSeconds(env);
  const undone = await undoneIds(db, now - wait, now - wait * (REDELIVER_ROUNDS + 1), SWEEP_LIMIT);
  await relayOutbox(env, db, undone, now);
  await pruneSent(db, now - KEEP_SENT_SECONDS);
  const result: SweepResult = { events: events.length, events_redelivered: undone.length };
  for (const [name, task] of Object.entries(handlers().sweep)) {
    result[name] = await task(env, now);
  }
  return result;
}
