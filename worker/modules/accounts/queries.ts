import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts } from "../../db/schema";

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccount = typeof accounts.$inferInsert;

export const findAccount = (db: Db, id: number) =>
  db.select().from(accounts).where(eq(accounts.id, id)).get();

export const insertAccount = (db: Db, values: NewAccount) =>
  db.insert(accounts).values(values).returning();

export const updateAccount = (db: Db, id: number, values: Partial<NewAccount>) =>
  db.update(accounts).set(values).where(eq(accounts.id, id)).returning();

export const deleteAccount = (db: Db, id: number) => db.delete(accounts).where(eq(accounts.id, id));
