import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, accountUsers } from "../../db/schema";

export type NewAccount = typeof accounts.$inferInsert;

export const findAccount = (db: Db, id: number) =>
  db.select().from(accounts).where(eq(accounts.id, id)).get();

export const insertAccount = (db: Db, values: NewAccount) =>
  db.insert(accounts).values(values).returning();

export const updateAccount = (db: Db, id: number, values: Partial<NewAccount>) =>
  db.update(accounts).set(values).where(eq(accounts.id, id)).returning();

export const deleteAccount = (db: Db, id: number) => db.delete(accounts).where(eq(accounts.id, id));

/** The account and one user's membership of it, in one D1 round trip. */
export async function findAccountWithMember(db: Db, accountId: number, userId: number) {
  const [[account], [membership]] = await db.batch([
    db.select().from(accounts).where(eq(accounts.id, accountId)),
    db
      .select()
      .from(accountUsers)
      .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId))),
  ]);
  return [account, membership] as const;
}
