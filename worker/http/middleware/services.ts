import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { createDeps } from "../../events/deps";
import { createLogger } from "../../lib/logger";
import type { AppEnv } from "../context";
import { clientIp } from "./rate-limit";

function waitUntilOf(c: Context<AppEnv>) {
  try {
    const ctx = c.executionCtx;
    return (work: Promise<unknown>) => ctx.waitUntil(work);
  } catch {
    // app.request() without an execution context: the relay is awaited instead.
    return undefined;
  }
}

/** The request's deps (events/deps.ts), with a logger that names the request. */
export const services = createMiddleware<AppEnv>(async (c, next) => {
  const deps = createDeps(c.env, {
    origin: new URL(c.req.url).origin,
    remoteAddress: clientIp(c),
    defer: waitUntilOf(c),
    log: createLogger({ request_id: c.var.requestId }),
  });
  c.set("deps", deps);
  await next();
  // Live handlers run before the response leaves, so clients see state in order.
  await deps.events.flush();
});
