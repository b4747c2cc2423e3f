import { and, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accountUsers, type LinkPurpose, oneTimeLinks } from "../../db/schema";

export type NewLink = typeof oneTimeLinks.$inferInsert;

export const insertLink = (db: Db, values: NewLink) => db.insert(oneTimeLinks).values(values);

/**
 * A user's earlier links of the same kind (and account, for invitations), plus any of theirs
 * that expired: a new link replaces the old one, so only the latest mail works.
 */
export const deleteSupersededLinks = (
  db: Db,
  userId: number,
  purpose: LinkPurpose,
  accountId: number | null,
  now: number,
) =>
  db
    .delete(oneTimeLinks)
    .where(
      and(
        eq(oneTimeLinks.userId, userId),
        or(
          and(eq(oneTimeLinks.purpose, purpose), sql`${oneTimeLinks.accountId} IS ${accountId}`),
          lt(oneTimeLinks.expiresAt, now),
        ),
      ),
    );

export const findLiveLink = (db: Db, tokenHash: string, purpose: LinkPurpose, now: number) =>
  db
    .select()
    .from(oneTimeLinks)
    .where(
      and(
        eq(oneTimeLinks.tokenHash, tokenHash),
        eq(oneTimeLinks.purpose, purpose),
        gt(oneTimeLinks.expiresAt, now),
      ),
    )
    .get();

/**
 * Takes a link for use: of two requests racing with one link, only one deletes the row, and
 * only that one goes on to act on it.
 */
export const claimLink = (db: Db, linkId: number) =>
  db.delete(oneTimeLinks).where(eq(oneTimeLinks.id, linkId)).returning({ id: oneTimeLinks.id });

/** Every link of this kind of the user: a used password link voids the others. */
export const deleteUserLinks = (db: Db, userId: number, purpose: LinkPurpose) =>
  db
    .delete(oneTimeLinks)
    .where(and(eq(oneTimeLinks.userId, userId), eq(oneTimeLinks.purpose, purpose)));

export const joinAccount = (db: Db, values: typeof accountUsers.$inferInsert) =>
  db.insert(accountUsers).values(values).onConflictDoNothing();
