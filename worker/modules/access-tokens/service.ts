import type { Db } from "../../db/client";
import { type AgentBotRow, findBot } from "../agent-bots/queries";
import { findUser, type UserRow } from "../users/queries";
import { findByToken } from "./queries";

/** Who a token belongs to. */
export type Actor =
  | { kind: "user"; user: UserRow }
  | { kind: "bot"; bot: AgentBotRow }
  | { kind: "platform"; platformAppId: number };

/** Resolves an `api_access_token` to its owner, or null when it matches nothing. */
export async function resolveToken(db: Db, token: string): Promise<Actor | null> {
  const row = await findByToken(db, token);
  if (!row) {
    return null;
  }
  switch (row.ownerType) {
    case "User": {
      const user = await findUser(db, row.ownerId);
      return user ? { kind: "user", user } : null;
    }
    case "AgentBot": {
      const bot = await findBot(db, row.ownerId);
      return bot ? { kind: "bot", bot } : null;
    }
    case "PlatformApp":
      return { kind: "platform", platformAppId: row.ownerId };
    default:
      return null;
  }
}
