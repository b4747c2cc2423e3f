import type { Bindings } from "../env";
import { listenersFor } from "./registry";
import type { DomainEvent, EventMap, EventName } from "./types";

export type EventBus = {
  emit<K extends EventName>(name: K, payload: EventMap[K]): void;
  /** Runs the sync listeners for everything emitted so far, in emit order. */
  flush(): Promise<void>;
};

export type ListenerContext = { env: Bindings; accountId: number };

/**
 * Collects a request's events and hands them to their listeners after the handler is done.
 * A failing listener is logged and never fails the request that caused the event.
 */
export function createEventBus(
  env: Bindings,
  log: (entry: Record<string, unknown>) => void,
): EventBus {
  const pending: DomainEvent[] = [];
  return {
    emit(name, payload) {
      pending.push({ name, payload } as DomainEvent);
    },
    async flush() {
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
