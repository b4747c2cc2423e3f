import { createMiddleware } from "hono/factory";
import { createDb } from "../../db/client";
import { nowSeconds } from "../../lib/time";
import type { AppEnv } from "../context";

export const services = createMiddleware<AppEnv>(async (c, next) => {
  c.set("deps", { db: createDb(c.env.DB), env: c.env, now: nowSeconds });
  await next();
});
