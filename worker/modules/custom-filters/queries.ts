import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type CustomFilterType, customFilters } from "../../db/schema";

export type NewCustomFilter = typeof customFilters.$inferInsert;

/** A user's filters are theirs alone: every query names the account and the user. */
const owned = (accountId: number, userId: number) =>
  and(eq(customFilters.accountId, accountId), eq(customFilters.userId, userId));

export const listCustomFilters = (
  db: Db,
  accountId: number,
  userId: number,
  type: CustomFilterType,
) =>
  db
    .select()
    .from(customFilters)
    .where(and(owned(accountId, userId), eq(customFilters.filterType, type)))
    .orderBy(asc(customFilters.id))
    .all();

export const countCustomFilters = async (db: Db, accountId: number, userId: number) =>
  (await db.select({ n: count() }).from(customFilters).where(owned(accountId, userId)).get())?.n ??
  0;

export const findCustomFilter = (db: Db, accountId: number, userId: number, id: number) =>
  db
    .select()
    .from(customFilters)
    .where(and(owned(accountId, userId), eq(customFilters.id, id)))
    .get();

export const insertCustomFilter = (db: Db, values: NewCustomFilter) =>
  db.insert(customFilters).values(values).returning();

export const updateCustomFilter = (
  db: Db,
  accountId: number,
  userId: number,
  id: number,
  values: Partial<NewCustomFilter>,
) =>
  db
    .update(customFilters)
    .set(values)
    .where(and(owned(accountId, userId), eq(customFilters.id, id)))
    .returning();

export const deleteCustomFilter = (db: Db, accountId: number, userId: number, id: number) =>
  db.delete(customFilters).where(and(owned(accountId, userId), eq(customFilters.id, id)));
