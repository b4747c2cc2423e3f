import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type TokenOwnerType, accessTokens } from "../../db/schema";

export type AccessTokenRow = typeof accessTokens.$inferSelect;

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
