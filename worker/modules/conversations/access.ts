import type { AccountRow, ConversationRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import type { AccountRole, Actor } from "../access-tokens/service";
import { viewerOf } from "./policy";
import { findVisibleByDisplayId } from "./queries";

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
  // One D1 round trip: the conversation only if the caller sees its inbox.
  const row = await findVisibleByDisplayId(
    scope.deps.db,
    viewerOf(scope),
    scope.account.id,
    displayId,
  );
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}
