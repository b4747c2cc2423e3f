import { createMiddleware } from "hono/factory";
import { ApiError } from "../../lib/errors";
import { callerScope } from "../../modules/accounts/scope";
import { authCache } from "../auth-cache";
import type { AccountEnv } from "../context";
import { readAccessToken } from "./token";

/**
 * Resolves `:account_id` and the caller's role in it. An account the caller does not belong to
 * answers 404 like a missing one, so account ids cannot be probed.
 */
export const accountScope = createMiddleware<AccountEnv>(async (c, next) => {
  const raw = c.req.param("account_id") ?? "";
  const accountId = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(accountId)) {
    throw new ApiError("not_found");
  }
  const { account, role } = await authCache.scope(readAccessToken(c) ?? "", accountId, () =>
    callerScope(c.var.deps.db, c.var.actor, accountId),
  );
  c.set("role", role);
  c.set("account", account);
  await next();
});
