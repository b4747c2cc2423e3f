import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { createDb } from "../../db/client";
import type { Bindings } from "../../env";
import { createEventBus } from "../../events/bus";
import { SYSTEM } from "../../events/outbox";
import type { PerformedBy } from "../../events/outbox-types";
import { type Outbound, realOutbound } from "../../lib/outbound";
import { nowSeconds } from "../../lib/time";
import type { AppEnv, Deps } from "../context";

const log = (_entry: Record<string, unknown>) => {};

export type DepsOptions = {
  /** Attribution of the events this unit of work records; "system" unless told. */
  performedBy?: PerformedBy;
  origin?: string;
  /** Outbound HTTP; the real fetch unless a test hands in a recorder. */
  outbound?: Outbound;
  /** Lets the outbox relay outlive the caller (waitUntil); awaited in `flush` otherwise. */
  defer?: (work: Promise<unknown>) => void;
  log?: (entry: Record<string, unknown>) => void;
};

/**
 * Service dependencies for one unit of work: a request, or work done outside one (the queue
 * consumer, automation). Whoever builds them calls `deps.events.flush()` when done, which runs
 * the sync listeners and sends the recorded outbox rows to the queue.
 */
export function createDeps(env: Bindings, opts: DepsOptions = {}): Deps {
  return {
    db: createDb(env.DB),
    env,
    now: nowSeconds,
    events: createEventBus(env, { log: opts.log ?? log, defer: opts.defer }),
    performedBy: opts.performedBy ?? SYSTEM,
    origin: opts.origin ?? "",
    outbound: opts.outbound ?? realOutbound,
  };
}

function waitUntilOf(c: Context<AppEnv>) {
  try {
    const ctx = c.executionCtx;
    return (work: Promise<unknown>) => ctx.waitUntil(work);
  } catch {
    // app.request() without an execution context: the relay is awaited instead.
    return undefined;
  }
}

export const services = createMiddleware<AppEnv>(async (c, next) => {
  const deps = createDeps(c.env, {
    origin: new URL(c.req.url).origin,
    defer: waitUntilOf(c),
    log: (entry) => log({ ...entry, requestId: c.var.requestId }),
  });
  c.set("deps", deps);
  await next();
  // Sync listeners (realtime) run before the response leaves, so clients see state in order.
  await deps.events.flush();
});
