import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";

/** Honours a caller's X-Request-Id when it looks sane, so traces can be joined across services. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const id = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", id);
  c.header("X-Request-Id", id);
  await next();
});
