import { and, eq } from "drizzle-orm";
import * as t from "../../worker/db/schema";
import { db } from "./factories";

/** Team membership for agent-removal tests (teams have their own factories elsewhere). */
export async function joinTeam(teamId: number, userId: number) {
  await db().insert(t.teamMembers).values({ teamId, userId });
}

/** Ids of the users in an inbox, straight from the table. */
export async function inboxMemberIds(inboxId: number): Promise<number[]> {
  const rows = await db()
    .select({ userId: t.inboxMembers.userId })
    .from(t.inboxMembers)
    .where(eq(t.inboxMembers.inboxId, inboxId))
    .all();
  return rows.map((r) => r.userId).sort((a, b) => a - b);
}

export async function teamMemberIds(teamId: number): Promise<number[]> {
  const rows = await db()
    .select({ userId: t.teamMembers.userId })
    .from(t.teamMembers)
    .where(eq(t.teamMembers.teamId, teamId))
    .all();
  return rows.map((r) => r.userId);
}

export const findMembershipRow = (accountId: number, userId: number) =>
  db()
    .select()
    .from(t.accountUsers)
    .where(and(eq(t.accountUsers.accountId, accountId), eq(t.accountUsers.userId, userId)))
    .get();

export const findUserRow = (id: number) =>
  db().select().from(t.users).where(eq(t.users.id, id)).get();

export const findUserToken = (userId: number) =>
  db()
    .select()
    .from(t.accessTokens)
    .where(and(eq(t.accessTokens.ownerType, "User"), eq(t.accessTokens.ownerId, userId)))
    .get();

export const findBotLink = (inboxId: number) =>
  db().select().from(t.agentBotInboxes).where(eq(t.agentBotInboxes.inboxId, inboxId)).get();
