import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type PermissibleType, platformAppPermissibles } from "../../db/schema";

export async function isPermitted(
  db: Db,
  platformAppId: number,
  type: PermissibleType,
  id: number,
): Promise<boolean> {
  const row = await db
    .select({ id: platformAppPermissibles.id })
    .from(platformAppPermissibles)
    .where(
      and(
        eq(platformAppPermissibles.platformAppId, platformAppId),
        eq(platformAppPermissibles.permissibleType, type),
        eq(platformAppPermissibles.permissibleId, id),
      ),
    )
    .get();
  return row !== undefined;
}

/**
 * Grants the app the row inserted just before in the same batch: batches run in one
 * transaction, so last_insert_rowid() is that row's id.
 */
export const permitLastInserted = (db: Db, platformAppId: number, type: PermissibleType) =>
  db.insert(platformAppPermissibles).values({
    platformAppId,
    permissibleType: type,
    permissibleId: sql`last_insert_rowid()`,
  });

export const permit = (db: Db, platformAppId: number, type: PermissibleType, id: number) =>
  db
    .insert(platformAppPermissibles)
    .values({ platformAppId, permissibleType: type, permissibleId: id })
    .onConflictDoNothing();

/** Drops every app's grant on a deleted record. */
export const revokeAll = (db: Db, type: PermissibleType, id: number) =>
  db
    .delete(platformAppPermissibles)
    .where(
      and(
        eq(platformAppPermissibles.permissibleType, type),
        eq(platformAppPermissibles.permissibleId, id),
      ),
    );
