import { createDb } from "../db/client";
import type { Bindings } from "../env";
import type { Logger } from "../lib/logger";
import { nowSeconds } from "../lib/time";
import { handlers } from "./registry";
import { relayOutbox } from "./relay";
import type { CommittedEvent } from "./types";

export type EventBus = {
  /** What a commit of this unit of work recorded: its events and their outbox rows. */
  committed(events: CommittedEvent[], outboxIds: number[]): void;
  /**
   * Relays the outbox rows to the queue, then runs the live handlers: in commit order within a
   * conversation, conversations side by side.
   */
  flush(): Promise<void>;
};

export type BusOptions = {
  log: Logger;
  /** Lets the relay outlive the response (executionCtx.waitUntil); awaited when absent. */
  defer?: (work: Promise<unknown>) => void;
};

/**
 * Collects a unit of work's committed events and hands them on once it is done. A failing
 * handler or relay is logged and never fails the request that caused the event (the cron sweep
 * re-sends what was not relayed).
 */
export function createEventBus(env: Bindings, { log, defer }: BusOptions): EventBus {
  const pending: CommittedEvent[] = [];
  const outboxIds: number[] = [];
  const relay = async () => {
    const ids = outboxIds.splice(0);
    if (ids.length === 0) {
      return;
    }
    const work = relayOutbox(env, createDb(env.DB), ids, nowSeconds()).catch((error) =>
      log.error("outbox relay failed", { ids, error }),
    );
    if (defer) {
      defer(work);
    } else {
      await work;
    }
  };
  return {
    committed(events, ids) {
      pending.push(...events);
      outboxIds.push(...ids);
    },
    async flush() {
      await relay();
      const live = handlers().live;
      while (pending.length > 0) {
        // One conversation's frames keep their commit order; different conversations' frames
        // go side by side (a batch of timed changes flushes many conversations at once).
        const groups = new Map<number | null, CommittedEvent[]>();
        for (const item of pending.splice(0)) {
          const key = item.conversation?.id ?? null;
          groups.set(key, [...(groups.get(key) ?? []), item]);
        }
        await Promise.all(
          [...groups.values()].map(async (group) => {
            for (const item of group) {
              for (const handler of live) {
                try {
                  await handler(item, { env, log });
                } catch (error) {
                  log.error("live handler failed", { event: item.event.name, error });
                }
              }
            }
          }),
        );
      }
    },
  };
}
