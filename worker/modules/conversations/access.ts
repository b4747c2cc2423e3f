import type { Context } from "hono";
import type { Deps } from "../../events/deps";
import type { AccountEnv } from "../../http/context";
import { ApiError } from "../../http/errors";
import type { AccountRole, Actor } from "../access-tokens/service";
import type { AccountRow } from "../accounts/queries";
import { callerUserId, viewerOf } from "./policy";
import { type ConversationRow, findByDisplayId, inboxVisibleTo } from "./queries";
import type { ViewContext } from "./views";

export type { ConversationRow } from "./queries";

/** The caller of an account-API request, as every conversation service receives it. */
export type ConversationScope = {
  deps: Deps;
  account: AccountRow;
  actor: Actor;
  role: AccountRole;
};

/**
 * Loads a conversation by display_id for the caller, or throws ApiError("not_found").
 * Administrators: any in the account; agents: only inboxes they are members of (inbox_members);
 * agent bots: only inboxes the bot is attached to (agent_bot_inboxes, status active).
 */
export async function loadConversationFor(
  scope: ConversationScope,
  displayId: number,
): Promise<ConversationRow> {
  // Contacts reach conversations through loadOwnConversation (service.public.ts) only.
  if (scope.actor.kind === "contact") {
    throw new ApiError("not_found");
  }
  const row = await findByDisplayId(scope.deps.db, scope.account.id, displayId);
  if (!row || !(await inboxVisibleTo(scope.deps.db, viewerOf(scope), row.inboxId))) {
    throw new ApiError("not_found");
  }
  return row;
}

/** The conversation scope of an account-API request. */
export const scopeOf = (c: Context<AccountEnv>): ConversationScope => ({
  deps: c.var.deps,
  account: c.var.account,
  actor: c.var.actor,
  role: c.var.role,
});

/** What presenting conversations needs from the request. */
export const viewOf = (c: Context<AccountEnv>): ViewContext => ({
  db: c.var.deps.db,
  accountId: c.var.account.id,
  callerUserId: callerUserId(c.var.actor),
  origin: new URL(c.req.url).origin,
});
