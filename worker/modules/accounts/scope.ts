import type { Db } from "../../db/client";
import type { AccountRow } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import type { AccountRole, Actor } from "../access-tokens/service";
import { botServesAccount } from "../agent-bots/queries";
import { findAccountWithMember } from "./queries";

/**
 * The account and the caller's role in it: a user by membership, a bot by the account it serves.
 * An account the caller does not belong to answers 404 like a missing one, so account ids cannot
 * be probed. Used by the account API's middleware and by the room for socket senders.
 */
export async function callerScope(
  db: Db,
  actor: Actor,
  accountId: number,
): Promise<{ account: AccountRow; role: AccountRole }> {
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
