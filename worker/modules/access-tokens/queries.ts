import { and, eq, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accessTokens, agentBots, type TokenOwnerType, users } from "../../db/schema";

export const findByToken = (db: Db, token: string) =>
  db.select().from(accessTokens).where(eq(accessTokens.token, token)).get();

export const findForOwner = (db: Db, ownerType: TokenOwnerType, ownerId: number) =>
  db
    .select()
    .from(accessTokens)
    .where(and(eq(accessTokens.ownerType, ownerType), eq(accessTokens.ownerId, ownerId)))
    .get();

/** Builds (does not run) the insert, so callers can put it in their batch. */
export const insertToken = (db: Db, ownerType: TokenOwnerType, ownerId: number, token: string) =>
  db.insert(accessTokens).values({ ownerType, ownerId, token });

export const deleteForOwner = (db: Db, ownerType: TokenOwnerType, ownerId: number) =>
  db
    .delete(accessTokens)
    .where(and(eq(accessTokens.ownerType, ownerType), eq(accessTokens.ownerId, ownerId)));

export const replaceToken = (db: Db, ownerType: TokenOwnerType, ownerId: number, token: string) =>
  db
    .update(accessTokens)
    .set({ token, updatedAt: Math.floor(Date.now() / 1000) })
    .where(and(eq(accessTokens.ownerType, ownerType), eq(accessTokens.ownerId, ownerId)));

/**
 * The insert for an owner created earlier in the same batch, whose id is only known to SQL
 * (a subquery such as `userIdByEmail`).
 */
export const insertTokenFor = (
  db: Db,
  ownerType: TokenOwnerType,
  ownerId: number | SQL,
  token: string,
) => db.insert(accessTokens).values({ ownerType, ownerId, token });

/** Sets the owner's token, creating the row if the owner has none. */
export const upsertToken = (
  db: Db,
  ownerType: TokenOwnerType,
  ownerId: number,
  token: string,
  now: number,
) =>
  db
    .insert(accessTokens)
    .values({ ownerType, ownerId, token })
    .onConflictDoUpdate({
      target: [accessTokens.ownerType, accessTokens.ownerId],
      set: { token, updatedAt: now },
    });

/**
 * A token and its possible owners in one round trip: the owner rows are looked up through the
 * token itself, so only the one matching owner_type comes back.
 */
export function findTokenWithOwner(db: Db, token: string) {
  const ownerOf = (type: TokenOwnerType) =>
    db
      .select({ id: accessTokens.ownerId })
      .from(accessTokens)
      .where(and(eq(accessTokens.token, token), eq(accessTokens.ownerType, type)));
  return db.batch([
    db.select().from(accessTokens).where(eq(accessTokens.token, token)),
    db
      .select()
      .from(users)
      .where(eq(users.id, ownerOf("User"))),
    db
      .select()
      .from(agentBots)
      .where(eq(agentBots.id, ownerOf("AgentBot"))),
  ]);
}
