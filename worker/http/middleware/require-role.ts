import { createMiddleware } from "hono/factory";
import { ApiError } from "../../lib/errors";
import type { AccountEnv } from "../context";

/**
 * Chatwoot parity: bots may call only a whitelist of endpoints (conversation and message work),
 * so every route refuses them unless it opts in with `allowBots`.
 */
export const requireMember = (opts: { allowBots?: boolean } = {}) =>
  createMiddleware<AccountEnv>(async (c, next) => {
    if (c.var.role === "bot" && !opts.allowBots) {
      throw new ApiError("not_authorized_for_bots");
    }
    await next();
  });

/** Administrator-only routes: agents get 403, bots 401. */
export const requireAdmin = createMiddleware<AccountEnv>(async (c, next) => {
  if (c.var.role === "bot") {
    throw new ApiError("not_authorized_for_bots");
  }
  if (c.var.role !== "administrator") {
    throw new ApiError("forbidden");
  }
  await next();
});
