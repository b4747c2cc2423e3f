import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import {
  accountUsers,
  agentBotInboxes,
  agentBots,
  inboxes,
  inboxMembers,
  portals,
  users,
} from "../../db/schema";

export type NewInbox = typeof inboxes.$inferInsert;

const byName = [asc(sql`lower(${inboxes.name})`), asc(inboxes.id)];

export const listInboxes = (db: Db, accountId: number) =>
  db
    .select()
    .from(inboxes)
    .where(eq(inboxes.accountId, accountId))
    .orderBy(...byName)
    .all();

/** The inboxes an agent works in. */
export const listMemberInboxes = (db: Db, accountId: number, userId: number) =>
  db
    .select({ inbox: inboxes })
    .from(inboxes)
    .innerJoin(inboxMembers, eq(inboxMembers.inboxId, inboxes.id))
    .where(and(eq(inboxes.accountId, accountId), eq(inboxMembers.userId, userId)))
    .orderBy(...byName)
    .all();

export const findInbox = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(inboxes)
    .where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, id)))
    .get();

export const isInboxMember = async (db: Db, inboxId: number, userId: number) =>
  (await db
    .select({ id: inboxMembers.id })
    .from(inboxMembers)
    .where(and(eq(inboxMembers.inboxId, inboxId), eq(inboxMembers.userId, userId)))
    .get()) !== undefined;

export const insertInbox = (db: Db, values: NewInbox) =>
  db.insert(inboxes).values(values).returning();

export const updateInbox = (db: Db, id: number, values: Partial<NewInbox>) =>
  db.update(inboxes).set(values).where(eq(inboxes.id, id)).returning();

/**
 * The help-center portals whose pages embed this inbox's widget tag: their cached pages carry
 * its colour (data-color), so a colour change is a change of theirs (content_version).
 */
export const bumpLinkedPortals = (db: Db, inboxId: number, now: number) =>
  db
    .update(portals)
    .set({ contentVersion: sql`${portals.contentVersion} + 1`, updatedAt: now })
    .where(eq(portals.inboxId, inboxId));

/** Members and the bot link go with it (foreign keys cascade). */
export const deleteInbox = (db: Db, id: number) => db.delete(inboxes).where(eq(inboxes.id, id));

// --- members -------------------------------------------------------------------------------

/** Members who still belong to the account, as agent rows. */
export const listInboxMembers = (db: Db, accountId: number, inboxId: number) =>
  db
    .select({ user: users, membership: accountUsers })
    .from(inboxMembers)
    .innerJoin(users, eq(users.id, inboxMembers.userId))
    .innerJoin(
      accountUsers,
      and(eq(accountUsers.userId, inboxMembers.userId), eq(accountUsers.accountId, accountId)),
    )
    .where(eq(inboxMembers.inboxId, inboxId))
    .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
    .all();

/** D1 binds at most 100 parameters per statement, so id lists go in slices. */
const SLICE = 90;
const slices = <T>(items: T[], size = SLICE): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size));
  }
  return out;
};

export async function inboxMemberIds(db: Db, inboxId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: inboxMembers.userId })
    .from(inboxMembers)
    .where(eq(inboxMembers.inboxId, inboxId))
    .all();
  return rows.map((r) => r.userId);
}

/** Insert statements (two parameters per row) for one batch. */
export const addInboxMembers = (db: Db, inboxId: number, userIds: number[]) =>
  slices(userIds, SLICE / 2).map((ids) =>
    db
      .insert(inboxMembers)
      .values(ids.map((userId) => ({ inboxId, userId })))
      .onConflictDoNothing(),
  );

/** Delete statements for one batch. */
export const removeInboxMembers = (db: Db, inboxId: number, userIds: number[]) =>
  slices(userIds).map((ids) =>
    db
      .delete(inboxMembers)
      .where(and(eq(inboxMembers.inboxId, inboxId), inArray(inboxMembers.userId, ids))),
  );

/** Runs the statements atomically; nothing to do is fine. */
export async function runBatch(db: Db, statements: BatchItem<"sqlite">[]): Promise<void> {
  const [first, ...rest] = statements;
  if (first) {
    await db.batch([first, ...rest]);
  }
}

// --- agent bot ------------------------------------------------------------------------------

export const findInboxBot = (db: Db, inboxId: number) =>
  db
    .select({ bot: agentBots })
    .from(agentBotInboxes)
    .innerJoin(agentBots, eq(agentBots.id, agentBotInboxes.agentBotId))
    .where(eq(agentBotInboxes.inboxId, inboxId))
    .get();

/** One bot per inbox (unique index): a new bot replaces the old one. */
export const attachBot = (
  db: Db,
  accountId: number,
  inboxId: number,
  agentBotId: number,
  now: number,
) =>
  db
    .insert(agentBotInboxes)
    .values({ accountId, inboxId, agentBotId, status: "active" })
    .onConflictDoUpdate({
      target: agentBotInboxes.inboxId,
      set: { agentBotId, status: "active", updatedAt: now },
    });

export const detachBot = (db: Db, inboxId: number) =>
  db.delete(agentBotInboxes).where(eq(agentBotInboxes.inboxId, inboxId));
