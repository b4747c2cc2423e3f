import type { AccountRole } from "../../http/context";
import type { Actor } from "../access-tokens/service";

/** Whose conversations a caller may see, reduced to what the SQL scoping needs. */
export type Viewer =
  | { kind: "all" }
  | { kind: "agent"; userId: number }
  | { kind: "bot"; botId: number };

/**
 * Chatwoot parity (ConversationFinder / Conversations policy): administrators see the whole
 * account, agents the inboxes they are members of, agent bots the inboxes they serve.
 */
export function viewerOf(caller: { actor: Actor; role: AccountRole }): Viewer {
  if (caller.role === "administrator") {
    return { kind: "all" };
  }
  if (caller.actor.kind === "bot") {
    return { kind: "bot", botId: caller.actor.bot.id };
  }
  if (caller.actor.kind === "user") {
    return { kind: "agent", userId: caller.actor.user.id };
  }
  // Platform apps never reach the account API; see nothing rather than everything.
  return { kind: "agent", userId: -1 };
}

/** The user id behind the caller, for "mine" counts and last-seen updates. */
export const callerUserId = (actor: Actor): number | null =>
  actor.kind === "user" ? actor.user.id : null;
