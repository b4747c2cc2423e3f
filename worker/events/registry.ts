import type { ListenerContext } from "./bus";
import { realtimeListener } from "./listeners/realtime";
import type { DomainEvent, EventMap, EventName } from "./types";

/** A listener: one function per event it cares about, typed by EventMap. */
export type Listener = {
  [K in EventName]?: (payload: EventMap[K], ctx: ListenerContext) => Promise<void>;
};

/** Sync listeners, awaited after each request (the queue-fed async ones come with the outbox). */
const SYNC_LISTENERS: Listener[] = [realtimeListener];

type Run = (event: DomainEvent, ctx: ListenerContext) => Promise<void>;

export function listenersFor(name: EventName): Run[] {
  return SYNC_LISTENERS.flatMap((listener) => {
    const fn = listener[name] as
      | ((payload: unknown, ctx: ListenerContext) => Promise<void>)
      | undefined;
    return fn ? [(event: DomainEvent, ctx: ListenerContext) => fn(event.payload, ctx)] : [];
  });
}
