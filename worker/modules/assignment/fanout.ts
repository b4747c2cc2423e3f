import type { Bindings, DrainMessage } from "../../env";
import { createDeps } from "../../events/deps";
import { rotatingRead } from "../schedule/rotation";
import { inboxesWithQueue } from "./queries";
import { drainInbox } from "./service";

/**
 * Inboxes with a waiting queue the tick reads at most; the next tick goes on after the last one
 * (and wraps around), so with more waiting every inbox is sent within a few ticks.
 */
export const DRAIN_TICK_LIMIT = 1000;
/** Inboxes per TIMED message. */
export const DRAIN_INBOXES = 4;
/**
 * Queued conversations one TIMED message assigns per inbox. An assignment is about 8 D1 calls
 * (its read, the conditional update with its events, the member's mark, the events' relay), so
 * with parley-timed's max_batch_size of 5 one consumer invocation makes about 5 x 4 x 2 x 8 =
 * 320 (test/events/drain-fanout.test.ts counts them), under the 1,000 an invocation may make.
 */
export const DRAIN_PER_INBOX = 2;

/**
 * The cron's safety net (a missed slot or presence change): the tick only finds the inboxes
 * with a waiting queue (one read of a partial index) and sends them to the TIMED queue,
 * `DRAIN_INBOXES` a message; the consumer drains them (`drainFanned`). So the tick's D1 calls
 * never grow with the number of inboxes. Answers how many inboxes were sent.
 */
export async function drainQueues(
  env: Bindings,
  now: number,
  limit = DRAIN_TICK_LIMIT,
): Promise<number> {
  const { db } = createDeps(env);
  // Queues nobody can take stay put; taking turns keeps them from starving the inboxes after them.
  const inboxes = await rotatingRead(
    db,
    "assignment_drain",
    limit,
    async (after, n, upTo) => (await inboxesWithQueue(db, after, n, upTo)).map((r) => r.inboxId),
    (id) => id,
  );
  await sendDrains(env, inboxes, now);
  return inboxes.length;
}

/** Sends these inboxes' drains to the TIMED queue, `DRAIN_INBOXES` a message. */
export async function sendDrains(env: Bindings, inboxes: number[], now: number): Promise<void> {
  const messages: { body: DrainMessage }[] = [];
  for (let i = 0; i < inboxes.length; i += DRAIN_INBOXES) {
    messages.push({
      body: { kind: "timed", task: "drain", at: now, inboxes: inboxes.slice(i, i + DRAIN_INBOXES) },
    });
  }
  // Queue sendBatch takes at most 100 messages.
  for (let i = 0; i < messages.length; i += 100) {
    await env.TIMED.sendBatch(messages.slice(i, i + 100));
  }
}

/**
 * One drain message of the TIMED queue: its inboxes in turn, `DRAIN_PER_INBOX` conversations
 * each; the inboxes that looked at that many may have more waiting and are sent on again at once
 * (each round assigns or removes some, so it ends), rather than a minute later by the next tick.
 */
export async function drainFanned(env: Bindings, message: DrainMessage): Promise<number> {
  let assigned = 0;
  const more: number[] = [];
  for (const inboxId of message.inboxes) {
    const drained = await drainInbox(env, inboxId, message.at, DRAIN_PER_INBOX);
    assigned += drained.assigned;
    if (drained.more) {
      more.push(inboxId);
    }
  }
  if (more.length > 0) {
    await env.TIMED.send({ ...message, inboxes: more });
  }
  return assigned;
}
