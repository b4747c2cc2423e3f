import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accessTokens, agentBotInboxes, agentBots } from "../../db/schema";

export type AgentBotRow = typeof agentBots.$inferSelect;
export type NewAgentBot = typeof agentBots.$inferInsert;

export const findBot = (db: Db, id: number) =>
  db.select().from(agentBots).where(eq(agentBots.id, id)).get();

/** A bot acts in its own account, and in any account where it is attached to an inbox. */
export async function botServesAccount(db: Db, bot: AgentBotRow, accountId: number) {
  if (bot.accountId === accountId) {
    return true;
  }
  const link = await db
    .select({ id: agentBotInboxes.id })
    .from(agentBotInboxes)
    .where(and(eq(agentBotInboxes.agentBotId, bot.id), eq(agentBotInboxes.accountId, accountId)))
    .get();
  return link !== undefined;
}

/** Bot tokens are polymorphic rows, so account deletion removes them explicitly. */
export const deleteBotTokensOfAccount = (db: Db, accountId: number) =>
  db
    .delete(accessTokens)
    .where(
      and(
        eq(accessTokens.ownerType, "AgentBot"),
        inArray(
          accessTokens.ownerId,
          db.select({ id: agentBots.id }).from(agentBots).where(eq(agentBots.accountId, accountId)),
        ),
      ),
    );
