import { createMiddleware } from "hono/factory";
import { createDb } from "../../db/client";
import { createEventBus } from "../../events/bus";
import { nowSeconds } from "../../lib/time";
import type { AppEnv } from "../context";

const log = (_entry: Record<string, unknown>) => {};

export const services = createMiddleware<AppEnv>(async (c, next) => {
  const events = createEventBus(c.env, (entry) => log({ ...entry, requestId: c.var.requestId }));
  c.set("deps", { db: createDb(c.env.DB), env: c.env, now: nowSeconds, events });
  await next();
  // Sync listeners (realtime) run before the response leaves, so clients see state in order.
  await events.flush();
});
