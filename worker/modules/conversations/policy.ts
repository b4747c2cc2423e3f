import type { AccountRole, Actor } from "../access-tokens/service";

/** Whose conversations a caller may see, reduced to what the SQL scoping needs. */
export type Viewer =
  | { kind: "all" }
  | { kind: "agent"; userId: number }
  | { kind: "bot"; botId: number }
  | {
      kind: "contact";
      contactId: number;
      inboxId: number;
      contactInboxId: number;
      verified: boolean;
    };

/**
 * Chatwoot parity (ConversationFinder / Conversations policy): administrators see the whole
 * account, agents the inboxes they are members of, agent bots the inboxes they serve. A contact
 * (public API) sees only its own conversations in its inbox: those of its contact_inbox, or,
 * once identity-verified, those of every verified contact_inbox it has there.
 */
export function viewerOf(caller: { actor: Actor; role: AccountRole }): Viewer {
  if (caller.actor.kind === "contact") {
    const { contact, contactInbox } = caller.actor;
    return {
      kind: "contact",
      contactId: contact.id,
      inboxId: contactInbox.inboxId,
      contactInboxId: contactInbox.id,
      verified: contactInbox.hmacVerified,
    };
  }
  if (caller.role === "administrator" || caller.actor.kind === "automation") {
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

// Conversations' "mine" counts and last-seen updates use the one caller-id rule.
export { callerUserId } from "../access-tokens/service";
