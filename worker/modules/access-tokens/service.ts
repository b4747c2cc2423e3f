import type { Db } from "../../db/client";
import type { AgentBotRow, ContactInboxRow, ContactRow, UserRow } from "../../db/schema";
import { SYSTEM } from "../../events/deps";
import type { PerformedBy } from "../../events/types";
import { findTokenWithOwner } from "./queries";

/**
 * Who is calling: the owner of a token, or (public API, no token) a contact identified by its
 * inbox and contact_inbox source_id.
 */
export type AccountRole = "administrator" | "agent" | "bot" | "contact";

export type Actor =
  | { kind: "user"; user: UserRow }
  | { kind: "bot"; bot: AgentBotRow }
  | { kind: "platform"; platformAppId: number }
  | { kind: "contact"; contact: ContactRow; contactInbox: ContactInboxRow }
  /** An automation rule performing its actions (worker/modules/automation-rules). */
  | { kind: "automation"; ruleId: number }
  /** The service itself, on its own schedule: auto-resolve, snooze wake-up, auto-assignment. */
  | { kind: "system" };

/** The user id behind the caller (null for bots, contacts, platform apps and automation). */
export const callerUserId = (actor: Actor): number | null =>
  actor.kind === "user" ? actor.user.id : null;

/** Resolves an `api_access_token` to its owner (one D1 round trip), or null when it matches nothing. */
export async function resolveToken(db: Db, token: string): Promise<Actor | null> {
  const [[row], [user], [bot]] = await findTokenWithOwner(db, token);
  switch (row?.ownerType) {
    case "User":
      return user ? { kind: "user", user } : null;
    case "AgentBot":
      return bot ? { kind: "bot", bot } : null;
    case "PlatformApp":
      return { kind: "platform", platformAppId: row.ownerId };
    default:
      return null;
  }
}

/** Who a request acts as, for `performed_by` (automation passes its rule explicitly). */
export function performerOf(actor: Actor): PerformedBy {
  switch (actor.kind) {
    case "user":
      return { type: "user", id: actor.user.id };
    case "bot":
      return { type: "agent_bot", id: actor.bot.id };
    case "contact":
      return { type: "contact", id: actor.contact.id };
    case "automation":
      return { type: "automation_rule", id: actor.ruleId };
    default:
      return SYSTEM;
  }
}
