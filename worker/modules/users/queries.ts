import { and, asc, eq, inArray, notExists, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { AccountUserRow } from "../../db/schema";
import {
  accounts,
  accountUsers,
  inboxes,
  inboxMembers,
  teamMembers,
  teams,
  users,
} from "../../db/schema";

export type NewUser = typeof users.$inferInsert;
export type AccountRole = AccountUserRow["role"];

export const findUser = (db: Db, id: number) =>
  db.select().from(users).where(eq(users.id, id)).get();

export const findMembership = (db: Db, accountId: number, userId: number) =>
  db
    .select()
    .from(accountUsers)
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId)))
    .get();

/** Emails are stored lower-cased, so callers pass the normalised address. */
export const findUserByEmail = (db: Db, email: string) =>
  db.select().from(users).where(eq(users.email, email)).get();

export const insertUser = (db: Db, values: NewUser) => db.insert(users).values(values).returning();

export const updateUser = (db: Db, id: number, values: Partial<NewUser>) =>
  db.update(users).set(values).where(eq(users.id, id)).returning();

export const deleteUser = (db: Db, id: number) => db.delete(users).where(eq(users.id, id));

/** The id of the user with this email, for statements later in the batch that inserts it. */
export const userIdByEmail = (db: Db, email: string) =>
  sql`(${db.select({ id: users.id }).from(users).where(eq(users.email, email))})`;

export type MembershipWithAccount = {
  membership: AccountUserRow;
  account: { id: number; name: string; status: "active" | "suspended" };
};

/** A user's accounts, oldest membership first (Chatwoot's "first account"). */
export const membershipsOfUser = (db: Db, userId: number): Promise<MembershipWithAccount[]> =>
  db
    .select({
      membership: accountUsers,
      account: { id: accounts.id, name: accounts.name, status: accounts.status },
    })
    .from(accountUsers)
    .innerJoin(accounts, eq(accounts.id, accountUsers.accountId))
    .where(eq(accountUsers.userId, userId))
    .orderBy(asc(accountUsers.id))
    .all();

export const listAccountUsers = (db: Db, accountId: number) =>
  db
    .select()
    .from(accountUsers)
    .where(eq(accountUsers.accountId, accountId))
    .orderBy(asc(accountUsers.id))
    .all();

/** Find-or-create on (account, user), then set the role: one statement, so no race. */
export const upsertAccountUser = (
  db: Db,
  accountId: number,
  userId: number,
  role: AccountRole,
  now: number,
) =>
  db
    .insert(accountUsers)
    .values({ accountId, userId, role })
    .onConflictDoUpdate({
      target: [accountUsers.accountId, accountUsers.userId],
      set: { role, updatedAt: now },
    })
    .returning();

export const deleteAccountUser = (db: Db, accountId: number, userId: number) =>
  db
    .delete(accountUsers)
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId)));

const membershipGone = (db: Db, accountId: number, userId: number) =>
  notExists(
    db
      .select({ id: accountUsers.id })
      .from(accountUsers)
      .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId))),
  );

/**
 * Leaving an account also leaves its inboxes (Chatwoot's AccountUser after_destroy). Run after
 * the membership delete in one batch: it cleans up only if the membership really went.
 */
export const deleteInboxMembershipsInAccount = (db: Db, accountId: number, userId: number) =>
  db
    .delete(inboxMembers)
    .where(
      and(
        eq(inboxMembers.userId, userId),
        inArray(
          inboxMembers.inboxId,
          db.select({ id: inboxes.id }).from(inboxes).where(eq(inboxes.accountId, accountId)),
        ),
        membershipGone(db, accountId, userId),
      ),
    );

/** Leaving an account also leaves its teams; same batch rule as above. */
export const deleteTeamMembershipsInAccount = (db: Db, accountId: number, userId: number) =>
  db
    .delete(teamMembers)
    .where(
      and(
        eq(teamMembers.userId, userId),
        inArray(
          teamMembers.teamId,
          db.select({ id: teams.id }).from(teams).where(eq(teams.accountId, accountId)),
        ),
        membershipGone(db, accountId, userId),
      ),
    );
