import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { accountUsers, teamMembers, teams, users } from "../../db/schema";

export type NewTeam = typeof teams.$inferInsert;

export const listTeams = (db: Db, accountId: number) =>
  db.select().from(teams).where(eq(teams.accountId, accountId)).orderBy(asc(teams.id)).all();

export const findTeam = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(teams)
    .where(and(eq(teams.accountId, accountId), eq(teams.id, id)))
    .get();

/** Another team of the account already using `name` (excluding `exceptId`). */
export const findTeamByName = (db: Db, accountId: number, name: string, exceptId = 0) =>
  db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.accountId, accountId), eq(teams.name, name), ne(teams.id, exceptId)))
    .get();

export const insertTeam = (db: Db, values: NewTeam) => db.insert(teams).values(values).returning();

export const updateTeam = (db: Db, accountId: number, id: number, values: Partial<NewTeam>) =>
  db
    .update(teams)
    .set(values)
    .where(and(eq(teams.accountId, accountId), eq(teams.id, id)))
    .returning();

export const deleteTeam = (db: Db, accountId: number, id: number) =>
  db.delete(teams).where(and(eq(teams.accountId, accountId), eq(teams.id, id)));

/** The ids, among the account's teams, that `userId` belongs to. */
export async function teamIdsOfUser(db: Db, accountId: number, userId: number) {
  const rows = await db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teams.accountId, accountId), eq(teamMembers.userId, userId)))
    .all();
  return new Set(rows.map((r) => r.teamId));
}

/**
 * Team members with their account membership; the inner join hides users who have since left
 * the account.
 */
export const listMembers = (db: Db, accountId: number, teamId: number) =>
  db
    .select({ user: users, membership: accountUsers })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .innerJoin(
      accountUsers,
      and(eq(accountUsers.userId, users.id), eq(accountUsers.accountId, accountId)),
    )
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(asc(users.id))
    .all();

/** D1 allows 100 bound parameters per statement, so id lists are split. */
const CHUNK = 40;
const chunks = (ids: number[]) =>
  Array.from({ length: Math.ceil(ids.length / CHUNK) }, (_, i) =>
    ids.slice(i * CHUNK, (i + 1) * CHUNK),
  );

/** Which of `userIds` are users of the account. */
export async function accountUserIds(db: Db, accountId: number, userIds: number[]) {
  const found = new Set<number>();
  for (const part of chunks(userIds)) {
    const rows = await db
      .select({ userId: accountUsers.userId })
      .from(accountUsers)
      .where(and(eq(accountUsers.accountId, accountId), inArray(accountUsers.userId, part)))
      .all();
    for (const r of rows) {
      found.add(r.userId);
    }
  }
  return found;
}

export async function memberUserIds(db: Db, teamId: number) {
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(eq(teamMembers.teamId, teamId))
    .all();
  return rows.map((r) => r.userId);
}

/** Statements for `db.batch`; existing members are left alone. */
export const insertMembers = (db: Db, teamId: number, userIds: number[]): BatchItem<"sqlite">[] =>
  chunks(userIds).map((part) =>
    db
      .insert(teamMembers)
      .values(part.map((userId) => ({ teamId, userId })))
      .onConflictDoNothing(),
  );

/** Statements for `db.batch`. */
export const deleteMembers = (db: Db, teamId: number, userIds: number[]): BatchItem<"sqlite">[] =>
  chunks(userIds).map((part) =>
    db
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), inArray(teamMembers.userId, part))),
  );

export const deleteAllMembers = (db: Db, teamId: number) =>
  db.delete(teamMembers).where(eq(teamMembers.teamId, teamId));
