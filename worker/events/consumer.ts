import { createDb } from "../db/client";
import type { OutboxRow } from "../db/schema";
import type { Bindings } from "../env";
import { createLogger, type Logger } from "../lib/logger";
import { type Outbound, realOutbound } from "../lib/outbound";
import { spanTimer } from "../lib/spans";
import { nowSeconds } from "../lib/time";
import type { WebhookEventName } from "./names";
import type {
  AsyncListener,
  AsyncListenerContext,
  OutboxEvent,
  OutboxPayload,
} from "./outbox-types";
import { findOutboxRows, markDone } from "./queries";
import type { QueueMessage } from "./queue-messages";
import { handlers } from "./registry";

export type ConsumerOptions = {
  /** Outbound HTTP; the real fetch unless a test records it. */
  outbound?: Outbound;
  /** The queue handlers; the registered ones unless a test picks its own. */
  listeners?: readonly AsyncListener[];
  /** Per-attempt delivery timeout (ms); tests shorten it. */
  timeoutMs?: number;
  log?: Logger;
};

const toEvent = (row: OutboxRow): OutboxEvent => ({
  id: row.id,
  accountId: row.accountId,
  name: row.name as WebhookEventName,
  conversationId: row.conversationId,
  conversationSeq: row.conversationSeq,
  payload: row.payload as OutboxPayload,
  createdAt: row.createdAt,
});

/** A failed event is retried with a growing wait (its listeners are idempotent). */
const eventRetryDelay = (attempts: number) => Math.min(300, 5 * 2 ** Math.max(0, attempts - 1));

async function runEvent(
  ctx: AsyncListenerContext,
  event: OutboxEvent | undefined,
  listeners: readonly AsyncListener[],
) {
  if (!event) {
    return; // pruned, or its account is gone
  }
  const failures: unknown[] = [];
  for (const listener of listeners) {
    try {
      await listener(event, ctx);
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) {
    throw new AggregateError(failures, `event ${event.id}: ${failures.length} listener(s) failed`);
  }
}

/** The batch's shared reads: each key loaded once, until a listener says it changed things. */
function batchMemo() {
  let shared = new Map<string, Promise<unknown>>();
  const memo = <T>(key: string, load: () => Promise<T>) => {
    const map = shared;
    if (!map.has(key)) {
      // A failed load is not kept: the next event of the batch tries again.
      map.set(
        key,
        load().catch((err) => {
          map.delete(key);
          throw err;
        }),
      );
    }
    return map.get(key) as Promise<T>;
  };
  return { memo, changed: () => (shared = new Map()) };
}

/**
 * The EVENTS queue consumer. An outbox event is loaded once and handed to every registered queue
 * handler (automation, webhooks, agent bots); a delivery message is one attempt of one delivery.
 * Messages of a batch run side by side, each acked or retried on its own.
 */
export async function consumeBatch(
  batch: MessageBatch<QueueMessage>,
  env: Bindings,
  opts: ConsumerOptions = {},
): Promise<void> {
  const log = opts.log ?? createLogger({ source: "queue" });
  const end = spanTimer(env)("events batch");
  const registered = handlers();
  const db = createDb(env.DB);
  // Every event of the batch in one read.
  const eventIds = batch.messages.flatMap((m) => (m.body.kind === "event" ? [m.body.id] : []));
  const events = new Map((await findOutboxRows(db, eventIds)).map((r) => [r.id, toEvent(r)]));
  const ctx: AsyncListenerContext = {
    env,
    db,
    now: nowSeconds,
    outbound: opts.outbound ?? realOutbound,
    log,
    ...batchMemo(),
    batch: eventIds.flatMap((id) => events.get(id) ?? []),
  };
  const listeners = opts.listeners ?? registered.queued;
  const done: number[] = [];
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = message.body;
      try {
        if (body.kind === "event") {
          await runEvent(ctx, events.get(body.id), listeners);
          message.ack();
          done.push(body.id);
          return;
        }
        if (!registered.delivery) {
          throw new Error("no delivery handler is registered");
        }
        const outcome = await registered.delivery(body.id, { ...ctx, timeoutMs: opts.timeoutMs });
        if (outcome.kind === "retry") {
          message.retry({ delaySeconds: outcome.delaySeconds ?? 0 });
        } else {
          message.ack();
        }
      } catch (error) {
        log.error("queue message failed", { body, error });
        message.retry({ delaySeconds: eventRetryDelay(message.attempts) });
      }
    }),
  );
  // Unmarked, an event is relayed again by the sweep and its (idempotent) listeners run again.
  await markDone(ctx.db, done, ctx.now()).catch((error) =>
    log.error("events not marked done", { ids: done, error }),
  );
  end({ messages: batch.messages.length });
}
