import { createMiddleware } from "hono/factory";
import { findAccount } from "../../modules/accounts/queries";
import { botServesAccount } from "../../modules/agent-bots/queries";
import { findMembership } from "../../modules/users/queries";
import type { AccountEnv } from "../context";
import { ApiError } from "../errors";

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
  const { db } = c.var.deps;
  const actor = c.var.actor;
  const account = await findAccount(db, accountId);
  if (!account) {
    throw new ApiError("not_found");
  }
  if (actor.kind === "user") {
    const membership = await findMembership(db, accountId, actor.user.id);
    if (!membership) {
      throw new ApiError("not_found");
    }
    c.set("role", membership.role);
  } else if (actor.kind === "bot") {
    if (!(await botServesAccount(db, actor.bot, accountId))) {
      throw new ApiError("not_found");
    }
    c.set("role", "bot");
  }
  if (account.status !== "active") {
    throw new ApiError("account_suspended");
  }
  c.set("account", account);
  await next();
});
