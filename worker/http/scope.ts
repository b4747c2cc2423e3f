import type { Context } from "hono";
import type { ConversationScope } from "../modules/conversations/access";
import { callerUserId } from "../modules/conversations/policy";
import type { ViewContext } from "../modules/conversations/views";
import type { AccountEnv } from "./context";

/** The caller of an account-API request, as the services receive it. */
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
  origin: c.var.deps.origin,
});
