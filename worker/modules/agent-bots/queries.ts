import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { AgentBotRow } from "../../db/schema";
import { accessTokens, agentBotInboxes, agentBots, platformAppPermissibles } from "../../db/schema";

export type NewAgentBot = typeof agentBots.$inferInsert;
/** A bot with its access token (null only if the token row is missing). */
export type BotWithToken = { bot: AgentBotRow; token: string | null };

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

/** The accounts whose inboxes the bot is attached to (where its sockets may be open). */
export const accountIdsOfBotInboxes = async (db: Db, botId: number): Promise<number[]> =>
  (
    await db
      .selectDistinct({ id: agentBotInboxes.accountId })
      .from(agentBotInboxes)
      .where(eq(agentBotInboxes.agentBotId, botId))
      .all()
  ).map((r) => r.id);

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

/** Bots joined with their tokens, in one query however many bots match. */
const botsWithTokens = (db: Db) =>
  db
    .select({ bot: agentBots, token: accessTokens.token })
    .from(agentBots)
    .leftJoin(
      accessTokens,
      and(eq(accessTokens.ownerType, "AgentBot"), eq(accessTokens.ownerId, agentBots.id)),
    );

export const findBotWithToken = (db: Db, id: number): Promise<BotWithToken | undefined> =>
  botsWithTokens(db).where(eq(agentBots.id, id)).get();

/** What an account can use: its own bots and the system bots (no account). */
const usableIn = (accountId: number) =>
  or(eq(agentBots.accountId, accountId), isNull(agentBots.accountId));

export const listBotsUsableIn = (db: Db, accountId: number): Promise<BotWithToken[]> =>
  botsWithTokens(db).where(usableIn(accountId)).orderBy(asc(agentBots.id)).all();

export const findBotUsableIn = (
  db: Db,
  accountId: number,
  id: number,
): Promise<BotWithToken | undefined> =>
  botsWithTokens(db)
    .where(and(eq(agentBots.id, id), usableIn(accountId)))
    .get();

/** The bots a platform app created. */
export const listBotsOfPlatformApp = (db: Db, platformAppId: number): Promise<BotWithToken[]> =>
  botsWithTokens(db)
    .where(
      inArray(
        agentBots.id,
        db
          .select({ id: platformAppPermissibles.permissibleId })
          .from(platformAppPermissibles)
          .where(
            and(
              eq(platformAppPermissibles.platformAppId, platformAppId),
              eq(platformAppPermissibles.permissibleType, "AgentBot"),
            ),
          ),
      ),
    )
    .orderBy(asc(agentBots.id))
    .all();

export const insertBot = (db: Db, values: NewAgentBot) =>
  db.insert(agentBots).values(values).returning();

export const updateBot = (db: Db, id: number, values: Partial<NewAgentBot>) =>
  db.update(agentBots).set(values).where(eq(agentBots.id, id)).returning();

/** Attachments to inboxes go with the bot (foreign-key cascade). */
export const deleteBot = (db: Db, id: number) => db.delete(agentBots).where(eq(agentBots.id, id));

/**
 * The id of the bot holding this freshly generated secret, for statements later in the batch
 * that inserts it (the secret is 32 random bytes, so it names one bot).
 */
export const botIdBySecret = (db: Db, secret: string) =>
  sql`(${db.select({ id: agentBots.id }).from(agentBots).where(eq(agentBots.secret, secret))})`;
