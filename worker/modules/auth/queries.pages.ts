import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, accountUsers, users } from "../../db/schema";

const linkUser = (db: Db, userId: number) =>
  db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);

/** The account an invitation joins, else the first the user belongs to. */
const linkAccount = (db: Db, userId: number, accountId: number | null) =>
  accountId
    ? db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)).limit(1)
    : db
        .select({ name: accounts.name })
        .from(accountUsers)
        .innerJoin(accounts, eq(accounts.id, accountUsers.accountId))
        .where(eq(accountUsers.userId, userId))
        .orderBy(asc(accountUsers.id))
        .limit(1);

/** Whom a link's page greets: the user's email and the account's name, in one batch. */
export async function linkPeople(db: Db, userId: number, accountId: number | null) {
  const [[user], [account]] = await db.batch([
    linkUser(db, userId),
    linkAccount(db, userId, accountId),
  ]);
  return { email: user?.email ?? null, account: account?.name ?? null };
}
