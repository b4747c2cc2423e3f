import { createDb } from "../db/client";
import type { OutboxRow } from "../db/schema";
import type { Bindings } from "../env";
import { createLogger, type Logger } from "../lib/logger";
import { type Outbound, realOutbound } from "../lib/outbound";
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
  row: OutboxRow | undefined,
  listeners: readonly AsyncListener[],
) {
  if (!row) {
    return; // pruned, or its account is gone
  }
  const event = toEvent(row);
  const failures: unknown[] = [];
  for (const listener of listeners) {
    try {
      await listener(event, ctx);
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) {
    throw new AggregateError(failures, `event ${row.id}: ${failures.length} listener(s) failed`);
  }
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
  const registered = handlers();
  const shared = new Map<string, Promise<unknown>>();
  const ctx: AsyncListenerContext = {
    env,
    db: createDb(env.DB),
    now: nowSeconds,
    outbound: opts.outbound ?? realOutbound,
    log,
    memo: <T>(key: string, load: () => Promise<T>) => {
      if (!shared.has(key)) {
        // A failed load is not kept: the next event of the batch tries again.
        shared.set(
          key,
          load().catch((err) => {
            shared.delete(key);
            throw err;
          }),
        );
      }
      return shared.get(key) as Promise<T>;
    },
  };
  const listeners = opts.listeners ?? registered.queued;
  // Every event of the batch in one read.
  const eventIds = batch.messages.flatMap((m) => (m.body.kind === "event" ? [m.body.id] : []));
  const rows = new Map((await findOutboxRows(ctx.db, eventIds)).map((r) => [r.id, r]));
  const done: number[] = [];
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = message.body;
      try {
        if (body.kind === "event") {
          await runEvent(ctx, rows.get(body.id), listeners);
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
}
