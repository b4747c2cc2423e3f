import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accountUsers, users } from "../../db/schema";

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type AccountUserRow = typeof accountUsers.$inferSelect;

export const findUser = (db: Db, id: number) =>
  db.select().from(users).where(eq(users.id, id)).get();

export const findMembership = (db: Db, accountId: number, userId: number) =>
  db
    .select()
    .from(accountUsers)
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId)))
    .get();
