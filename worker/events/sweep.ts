import { createDb } from "../db/client";
import type { Bindings } from "../env";
import { nowSeconds } from "../lib/time";
import { pruneSent, unsentIds } from "./queries";
import { handlers } from "./registry";
import { relayOutbox } from "./relay";

/** A row younger than this is still being relayed by its own request. */
const RELAY_GRACE_SECONDS = 30;
const SWEEP_LIMIT = 1000;
/** Relayed rows are kept a week for inspection; registered tasks prune with the same horizon. */
export const KEEP_SENT_SECONDS = 7 * 24 * 3600;

export type SweepResult = { events: number } & Record<string, number>;

/**
 * The cron trigger: re-sends outbox rows whose relay failed, prunes rows relayed a week ago,
 * then runs the registered sweep tasks (lost deliveries, old automation claims).
 */
export async function sweep(env: Bindings, now = nowSeconds()): Promise<SweepResult> {
  const db = createDb(env.DB);
  const events = await unsentIds(db, now - RELAY_GRACE_SECONDS, SWEEP_LIMIT);
  await relayOutbox(env, db, events, now);
  await pruneSent(db, now - KEEP_SENT_SECONDS);
  const result: SweepResult = { events: events.length };
  for (const [name, task] of Object.entries(handlers().sweep)) {
    result[name] = await task(env, now);
  }
  return result;
}
