import { createDb, type Db } from "../db/client";
import type { Bindings } from "../env";
import { createLogger, type Logger } from "../lib/logger";
import { type Outbound, realOutbound } from "../lib/outbound";
import { nowSeconds } from "../lib/time";
import { createEventBus, type EventBus } from "./bus";
import type { PerformedBy } from "./types";

/**
 * The services of one unit of work: a request, a Durable Object's own change (typing), a queue
 * handler's change (automation, a bot handoff). Built only here, by the Worker's `services`
 * middleware, the rooms and the queue handlers alike.
 */
export type Deps = {
  db: Db;
  env: Bindings;
  now: () => number;
  /** What this unit of work committed; `flush` relays it and runs the live handlers. */
  events: EventBus;
  /** Who the events of this unit of work are attributed to (automation loop guard). */
  performedBy: PerformedBy;
  /** The request's origin (for absolute file URLs); "" outside requests. */
  origin: string;
  /** The caller's address (CF-Connecting-IP), for the audit log; null outside requests. */
  remoteAddress: string | null;
  /** Outbound HTTP to webhook receivers and bots. */
  outbound: Outbound;
  log: Logger;
};

export const SYSTEM: PerformedBy = { type: "system", id: null };

export type DepsOptions = {
  /** Attribution of the events this unit of work records; "system" unless told. */
  performedBy?: PerformedBy;
  origin?: string;
  remoteAddress?: string | null;
  /** Outbound HTTP; the real fetch unless a test hands in a recorder. */
  outbound?: Outbound;
  /** Lets the outbox relay outlive the caller (waitUntil); awaited in `flush` otherwise. */
  defer?: (work: Promise<unknown>) => void;
  log?: Logger;
  now?: () => number;
};

/** Whoever builds deps calls `deps.events.flush()` when the unit of work is done. */
export function createDeps(env: Bindings, opts: DepsOptions = {}): Deps {
  const log = opts.log ?? createLogger();
  return {
    db: createDb(env.DB),
    env,
    now: opts.now ?? nowSeconds,
    events: createEventBus(env, { log, defer: opts.defer }),
    performedBy: opts.performedBy ?? SYSTEM,
    origin: opts.origin ?? "",
    remoteAddress: opts.remoteAddress ?? null,
    outbound: opts.outbound ?? realOutbound,
    log,
  };
}
