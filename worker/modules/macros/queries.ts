import { and, asc, count, eq, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { macros } from "../../db/schema";

export type NewMacro = typeof macros.$inferInsert;

/** Chatwoot's Macro.with_visibility: the account's global macros and the user's own, by id. */
export const visibleMacros = (db: Db, accountId: number, userId: number) =>
  db
    .select()
    .from(macros)
    .where(
      and(
        eq(macros.accountId, accountId),
        or(
          eq(macros.visibility, "global"),
          and(eq(macros.visibility, "personal"), eq(macros.createdById, userId)),
        ),
      ),
    )
    .orderBy(asc(macros.id))
    .all();

export const findMacro = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(macros)
    .where(and(eq(macros.accountId, accountId), eq(macros.id, id)))
    .get();

export const countMacros = async (db: Db, accountId: number) =>
  (await db.select({ n: count() }).from(macros).where(eq(macros.accountId, accountId)).get())?.n ??
  0;

export const insertMacro = (db: Db, values: NewMacro) =>
  db.insert(macros).values(values).returning();

export const updateMacroRow = (db: Db, accountId: number, id: number, values: Partial<NewMacro>) =>
  db
    .update(macros)
    .set(values)
    .where(and(eq(macros.accountId, accountId), eq(macros.id, id)))
    .returning();

export const deleteMacroRow = (db: Db, accountId: number, id: number) =>
  db.delete(macros).where(and(eq(macros.accountId, accountId), eq(macros.id, id)));
