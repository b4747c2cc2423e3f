import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AccountRow } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import { findAccountWithMember } from "../../modules/accounts/queries";
import { botServesAccount } from "../../modules/agent-bots/queries";
import { authCache } from "../auth-cache";
import type { AccountEnv, AccountRole } from "../context";
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
    resolveScope(c, accountId),
  );
  c.set("role", role);
  c.set("account", account);
  await next();
});

async function resolveScope(
  c: Context<AccountEnv>,
  accountId: number,
): Promise<{ account: AccountRow; role: AccountRole }> {
  const { db } = c.var.deps;
  const actor = c.var.actor;
  const userId = actor.kind === "user" ? actor.user.id : 0;
  let role: AccountRole;
  // The account and the caller's membership in one D1 round trip.
  const [account, membership] = await findAccountWithMember(db, accountId, userId);
  if (!account) {
    throw new ApiError("not_found");
  }
  if (actor.kind === "user") {
    if (!membership) {
      throw new ApiError("not_found");
    }
    role = membership.role;
  } else if (actor.kind === "bot") {
    if (!(await botServesAccount(db, actor.bot, accountId))) {
      throw new ApiError("not_found");
    }
    role = "bot";
  } else {
    throw new ApiError("invalid_token");
  }
  if (account.status !== "active") {
    throw new ApiError("account_suspended");
  }
  return { account, role };
}
