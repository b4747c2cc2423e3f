import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { AccountUserRow, UserRow } from "../../db/schema";
import { accessTokens, accountUsers, users } from "../../db/schema";

export type NewMembership = typeof accountUsers.$inferInsert;

/** A user as a member of one account: what the agent presenter needs. */
export type AgentRow = { user: UserRow; membership: AccountUserRow };

const agentColumns = { user: users, membership: accountUsers };

export const listAgents = (db: Db, accountId: number) =>
  db
    .select(agentColumns)
    .from(accountUsers)
    .innerJoin(users, eq(users.id, accountUsers.userId))
    .where(eq(accountUsers.accountId, accountId))
    .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
    .all();

export const findAgent = (db: Db, accountId: number, userId: number) =>
  db
    .select(agentColumns)
    .from(accountUsers)
    .innerJoin(users, eq(users.id, accountUsers.userId))
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId)))
    .get();

/** The subset of `userIds` that belong to the account (sliced: D1 binds at most 100 values). */
export async function accountMemberIds(db: Db, accountId: number, userIds: number[]) {
  const found = new Set<number>();
  for (let i = 0; i < userIds.length; i += 90) {
    const rows = await db
      .select({ userId: accountUsers.userId })
      .from(accountUsers)
      .where(
        and(
          eq(accountUsers.accountId, accountId),
          inArray(accountUsers.userId, userIds.slice(i, i + 90)),
        ),
      )
      .all();
    for (const r of rows) {
      found.add(r.userId);
    }
  }
  return found;
}

/** Emails are stored lower-cased, but older rows may not be, so compare case-insensitively. */
export const findUserByEmail = (db: Db, email: string) =>
  db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .get();

export const insertUser = (db: Db, values: typeof users.$inferInsert) =>
  db.insert(users).values(values);

const userIdByEmail = (db: Db, email: string) =>
  sql`(${db.select({ id: users.id }).from(users).where(eq(users.email, email))})`;

/** Token for a user inserted earlier in the same batch, found by its (unique) email. */
export const insertTokenForEmail = (db: Db, email: string, token: string) =>
  db.insert(accessTokens).values({ ownerType: "User", ownerId: userIdByEmail(db, email), token });

/** Membership for a user inserted earlier in the same batch. */
export const insertMembershipForEmail = (
  db: Db,
  email: string,
  values: Omit<NewMembership, "userId">,
) => db.insert(accountUsers).values({ ...values, userId: userIdByEmail(db, email) });

const adminCount = (db: Db, accountId: number) =>
  sql`(${db
    .select({ n: count() })
    .from(accountUsers)
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.role, "administrator")))})`;

/** Someone other than an administrator, or an administrator who is not the last one. */
const notLastAdmin = (db: Db, accountId: number) =>
  sql`(${accountUsers.role} <> 'administrator' OR ${adminCount(db, accountId)} > 1)`;

/**
 * Updates a membership; a demotion of the account's last administrator matches no row.
 * The guard lives in the statement so two admins demoting each other cannot both win.
 */
export const updateMembership = (
  db: Db,
  accountId: number,
  userId: number,
  values: Partial<NewMembership>,
) => {
  const scope = and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId));
  const guarded = values.role === "agent" ? and(scope, notLastAdmin(db, accountId)) : scope;
  return db.update(accountUsers).set(values).where(guarded).returning();
};

/** Deletes a membership unless it is the account's last administrator. */
export const deleteMembership = (db: Db, accountId: number, userId: number) =>
  db
    .delete(accountUsers)
    .where(
      and(
        eq(accountUsers.accountId, accountId),
        eq(accountUsers.userId, userId),
        notLastAdmin(db, accountId),
      ),
    )
    .returning({ id: accountUsers.id });
