import type { Db } from "../../db/client";
import type { AgentBotRow } from "../agent-bots/queries";
import type { ContactInboxRow, ContactRow } from "../conversations/queries";
import type { UserRow } from "../users/queries";
import { findTokenWithOwner } from "./queries";

/**
 * Who is calling: the owner of a token, or (public API, no token) a contact identified by its
 * inbox and contact_inbox source_id.
 */
export type Actor =
  | { kind: "user"; user: UserRow }
  | { kind: "bot"; bot: AgentBotRow }
  | { kind: "platform"; platformAppId: number }
  | { kind: "contact"; contact: ContactRow; contactInbox: ContactInboxRow }
  /** An automation rule performing its actions (worker/modules/automation-rules). */
  | { kind: "automation"; ruleId: number };

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
