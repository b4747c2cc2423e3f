import { createDb } from "../db/client";
import type { Bindings } from "../env";
import { nowSeconds } from "../lib/time";
import { relayOutbox } from "./outbox";
import { listenersFor } from "./registry";
import type { DomainEvent, EventMap, EventName } from "./types";

export type EventBus = {
  emit<K extends EventName>(name: K, payload: EventMap[K]): void;
  /** Outbox rows committed during this unit of work; `flush` sends them to the queue. */
  recorded(ids: number[]): void;
  /** Runs the sync listeners for everything emitted so far, in emit order, then relays. */
  flush(): Promise<void>;
};

export type ListenerContext = { env: Bindings; accountId: number };

export type BusOptions = {
  log: (entry: Record<string, unknown>) => void;
  /** Lets the relay outlive the response (executionCtx.waitUntil); awaited when absent. */
  defer?: (work: Promise<unknown>) => void;
};

/**
 * Collects a unit of work's events and hands them to their listeners after it is done, and
 * relays its committed outbox rows to the queue. A failing listener or relay is logged and never
 * fails the request that caused the event (the cron sweep re-sends what was not relayed).
 */
export function createEventBus(env: Bindings, { log, defer }: BusOptions): EventBus {
  const pending: DomainEvent[] = [];
  const outboxIds: number[] = [];
  const relay = async () => {
    const ids = outboxIds.splice(0);
    if (ids.length === 0) {
      return;
    }
    const work = relayOutbox(env, createDb(env.DB), ids, nowSeconds()).catch((err) =>
      log({ level: "error", msg: "outbox relay failed", ids, error: String(err) }),
    );
    if (defer) {
      defer(work);
    } else {
      await work;
    }
  };
  return {
    emit(name, payload) {
      pending.push({ name, payload } as DomainEvent);
    },
    recorded(ids) {
      outboxIds.push(...ids);
    },
    async flush() {
      await relay();
      while (pending.length > 0) {
        const event = pending.shift() as DomainEvent;
        const accountId = event.payload.conversation.accountId;
        for (const listener of listenersFor(event.name)) {
          try {
            await listener(event, { env, accountId });
          } catch (err) {
            log({ level: "error", msg: "listener failed", event: event.name, error: String(err) });
          }
        }
      }
    },
  };
}
