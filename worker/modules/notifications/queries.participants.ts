import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  accountUsers,
  conversationParticipants,
  inboxMembers,
  mentions,
  teamMembers,
  teams,
  users,
} from "../../db/schema";
import { type AsyncListenerContext, batched, type OutboxEvent } from "../../events/outbox-types";

/** A conversation's participants as agents of its account. */
export const listParticipants = (db: Db, accountId: number, conversationId: number) =>
  db
    .select({ user: users, membership: accountUsers })
    .from(conversationParticipants)
    .innerJoin(users, eq(users.id, conversationParticipants.userId))
    .innerJoin(
      accountUsers,
      and(eq(accountUsers.userId, users.id), eq(accountUsers.accountId, accountId)),
    )
    .where(eq(conversationParticipants.conversationId, conversationId))
    .orderBy(asc(conversationParticipants.id))
    .all();

/** The participants of each of `conversationIds` (by user id, as one conversation's index gives them). */
export async function participantIdsOf(db: Db, conversationIds: number[]) {
  const rows = await db
    .select({
      conversationId: conversationParticipants.conversationId,
      userId: conversationParticipants.userId,
    })
    .from(conversationParticipants)
    .where(inArray(conversationParticipants.conversationId, conversationIds))
    .orderBy(asc(conversationParticipants.conversationId), asc(conversationParticipants.userId))
    .all();
  const out = new Map<number, number[]>();
  for (const r of rows) {
    out.set(r.conversationId, [...(out.get(r.conversationId) ?? []), r.userId]);
  }
  return out;
}

/** A new message's conversation's participants, read once per queue batch for all its events. */
export const eventParticipantIds = async (
  ctx: Pick<AsyncListenerContext, "db" | "memo" | "batch">,
  event: OutboxEvent,
) =>
  (await batched(
    ctx,
    "participants",
    event,
    (e) => (e.name === "message_created" && e.conversationId) || undefined,
    (ids) => participantIdsOf(ctx.db, ids),
  )) ?? [];

export const addParticipantRows = (
  db: Db,
  accountId: number,
  conversationId: number,
  userIds: number[],
) =>
  db
    .insert(conversationParticipants)
    .values(userIds.map((userId) => ({ accountId, conversationId, userId })))
    .onConflictDoNothing();

export const removeParticipantRows = (
  db: Db,
  conversationId: number,
  userIds: number[],
  keep = false,
) =>
  db
    .delete(conversationParticipants)
    .where(
      and(
        eq(conversationParticipants.conversationId, conversationId),
        keep
          ? sql`${conversationParticipants.userId} NOT IN (${sql.join(
              userIds.length ? userIds.map((id) => sql`${id}`) : [sql`NULL`],
              sql`, `,
            )})`
          : inArray(conversationParticipants.userId, userIds),
      ),
    );

/**
 * Of `userIds`, those who may take part in a conversation of `inboxId`: the inbox's members
 * and the account's administrators (Chatwoot's ConversationParticipant#ensure_inbox_access).
 */
export async function usersWithInboxAccess(
  db: Db,
  accountId: number,
  inboxId: number,
  userIds: number[],
): Promise<number[]> {
  if (userIds.length === 0) {
    return [];
  }
  const rows = await db
    .select({ userId: accountUsers.userId })
    .from(accountUsers)
    .leftJoin(
      inboxMembers,
      and(eq(inboxMembers.userId, accountUsers.userId), eq(inboxMembers.inboxId, inboxId)),
    )
    .where(
      and(
        eq(accountUsers.accountId, accountId),
        inArray(accountUsers.userId, userIds),
        sql`(${accountUsers.role} = 'administrator' OR ${inboxMembers.userId} IS NOT NULL)`,
      ),
    )
    .all();
  return rows.map((r) => r.userId);
}

/** The members of the account's teams among `teamIds` (an @team mention). */
export const teamMemberIdsOf = async (db: Db, accountId: number, teamIds: number[]) =>
  teamIds.length === 0
    ? []
    : (
        await db
          .select({ userId: teamMembers.userId })
          .from(teamMembers)
          .innerJoin(teams, eq(teams.id, teamMembers.teamId))
          .where(and(eq(teams.accountId, accountId), inArray(teamMembers.teamId, teamIds)))
          .all()
      ).map((r) => r.userId);

export const upsertMentions = (
  db: Db,
  accountId: number,
  conversationId: number,
  userIds: number[],
  at: number,
) =>
  db
    .insert(mentions)
    .values(userIds.map((userId) => ({ accountId, conversationId, userId, mentionedAt: at })))
    .onConflictDoUpdate({
      target: [mentions.conversationId, mentions.userId],
      set: { mentionedAt: at, updatedAt: at },
    });
