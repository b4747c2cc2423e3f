import type { Bindings } from "../env";
import type { Logger } from "../lib/logger";
import type { AsyncListener, AsyncListenerContext } from "./outbox-types";
import type { CommittedEvent } from "./types";

export type LiveContext = { env: Bindings; log: Logger };

/** Runs after a unit of work committed, before its response leaves (live frames). */
export type LiveHandler = (committed: CommittedEvent, ctx: LiveContext) => Promise<void>;

/** One attempt of one delivery (a queue message of kind "delivery"). */
export type DeliveryHandler = (
  id: number,
  ctx: AsyncListenerContext & { timeoutMs?: number },
) => Promise<{ kind: string; delaySeconds?: number }>;

/** A periodic task of the cron sweep; answers how many things it handled. */
export type SweepTask = (env: Bindings, now: number) => Promise<number>;

/** Who handles events, by where they run. The composition root (worker/wiring.ts) fills it. */
export type Handlers = {
  live: readonly LiveHandler[];
  /** Queue handlers, run in this order for every outbox event. */
  queued: readonly AsyncListener[];
  delivery: DeliveryHandler | null;
  sweep: Readonly<Record<string, SweepTask>>;
};

// Isolate-level on purpose: set once when the Worker's entry module loads, never per request.
let registered: Handlers = { live: [], queued: [], delivery: null, sweep: {} };

/** Sets the handlers (idempotent: a second call replaces the first). */
export function registerHandlers(handlers: Handlers): void {
  registered = handlers;
}

export const handlers = (): Handlers => registered;
