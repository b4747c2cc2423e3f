import { createDb } from "../../db/client";
import type { AccountRow } from "../../db/schema";
import type { Bindings, TimedMessage } from "../../env";
import type { Deps } from "../../events/deps";
import type { MessageScope } from "../messages/service";
import { dueForAutoResolve, dueRows, dueToWake } from "./queries";
import { rotatingRead } from "./rotation";

/**
 * At most this many due conversations of one kind per tick (each read is one indexed query of
 * that many rows at most); more are found by the next tick, a minute later.
 */
export const TICK_LIMIT = 1000;
/**
 * Conversations per TIMED message. With wrangler.toml's max_batch_size of 5, one consumer
 * invocation changes at most 50 conversations: about 3 D1 queries and 6 Durable Object calls
 * each (test/events/timed-fanout.test.ts counts them), well under an invocation's limits.
 */
export const TIMED_BATCH = 10;
/** Queue sendBatch takes at most 100 messages. */
const SEND_LIMIT = 100;

/** The service acting on its own schedule, in the account, with the tick's clock. */
export const systemScope = (deps: Deps, account: AccountRow): MessageScope => ({
  deps,
  account,
  actor: { kind: "system" },
  role: "administrator",
  origin: "",
});

/**
 * Sends the due conversations to the TIMED queue, `TIMED_BATCH` a message; consumers work them
 * in parallel (modules/schedule/consumer.ts). Answers how many conversations were sent.
 */
async function fanOut(
  env: Bindings,
  task: TimedMessage["task"],
  at: number,
  items: [number, number][],
): Promise<number> {
  const messages: { body: TimedMessage }[] = [];
  for (let i = 0; i < items.length; i += TIMED_BATCH) {
    messages.push({ body: { kind: "timed", task, at, items: items.slice(i, i + TIMED_BATCH) } });
  }
  for (let i = 0; i < messages.length; i += SEND_LIMIT) {
    await env.TIMED.sendBatch(messages.slice(i, i + SEND_LIMIT));
  }
  return items.length;
}

/**
 * Chatwoot parity (Conversations::ResolutionJob): open conversations idle for their account's
 * `auto_resolve_after` minutes are resolved by the system. The tick only finds them (two indexed
 * reads) and fans them out; the consumer resolves each through the manual resolve's own path
 * (events, activity message, CSAT), then posts `auto_resolve_message` when set. Its write is
 * conditional on the conversation being still open, idle and unchanged since this read, so an
 * overlapping tick, a second delivery, or a reply meanwhile resolves nothing and writes nothing.
 */
export async function autoResolveDue(
  env: Bindings,
  now: number,
  limit = TICK_LIMIT,
): Promise<number> {
  const db = createDb(env.DB);
  const rows = [
    // Per account, taking turns (rotation.ts).
    ...(await rotatingRead(
      db,
      "auto_resolve",
      limit,
      (a, n, u) => dueRows(db, dueForAutoResolve(now, n, a, u).all),
      (r) => r.account,
    )),
    ...(await rotatingRead(
      db,
      "auto_resolve_not_waiting",
      limit,
      (a, n, u) => dueRows(db, dueForAutoResolve(now, n, a, u).notWaiting),
      (r) => r.account,
    )),
  ];
  return fanOut(
    env,
    "auto_resolve",
    now,
    rows.map((r): [number, number] => [r.id, r.seq]),
  );
}

/**
 * Chatwoot parity (Conversations::ReopenSnoozedConversationsJob): a conversation snoozed until a
 * time reopens then, fanned out as the auto-resolve is. Its idle clock restarts at the wake-up,
 * or the auto-resolve would close it again in the same minute. "Until next reply" (no time) is
 * left to the contact's next message.
 */
export async function wakeSnoozed(env: Bindings, now: number): Promise<number> {
  const rows = await dueToWake(createDb(env.DB), now, TICK_LIMIT);
  return fanOut(
    env,
    "wake",
    now,
    rows.map((r): [number, number] => [r.id, r.seq]),
  );
}
