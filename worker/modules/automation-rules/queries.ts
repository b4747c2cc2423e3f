import { and, count, desc, eq, inArray, lte } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { AttachmentRow } from "../../db/schema";
import { attachments, automationRules, automationRuns, teams } from "../../db/schema";

export type NewRule = typeof automationRules.$inferInsert;

/** One page of the account's rules, newest first, and how many there are. */
export const rulePage = (db: Db, accountId: number, limit: number, offset: number) =>
  db.batch([
    db
      .select()
      .from(automationRules)
      .where(eq(automationRules.accountId, accountId))
      .orderBy(desc(automationRules.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(automationRules).where(eq(automationRules.accountId, accountId)),
  ]);

export const findRule = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(automationRules)
    .where(and(eq(automationRules.accountId, accountId), eq(automationRules.id, id)))
    .get();

/** The rules an event runs, oldest first (the order they were made in). */
export const activeRulesFor = (db: Db, accountId: number, eventName: string) =>
  db
    .select()
    .from(automationRules)
    .where(
      and(
        eq(automationRules.accountId, accountId),
        eq(automationRules.eventName, eventName),
        eq(automationRules.active, true),
      ),
    )
    .orderBy(automationRules.id)
    .all();

/** Claims the rule's run on the event; false when a previous delivery of the event claimed it. */
export async function claimRun(db: Db, eventId: number, ruleId: number, at: number) {
  const claimed = await db
    .insert(automationRuns)
    .values({ eventId, ruleId, createdAt: at })
    .onConflictDoNothing()
    .returning({ ruleId: automationRuns.ruleId });
  return claimed.length > 0;
}

/** Runs recorded before `before`: their events are past the outbox retention. */
export const pruneRuns = (db: Db, before: number) =>
  db.delete(automationRuns).where(lte(automationRuns.createdAt, before));

export const insertRule = (db: Db, values: NewRule) =>
  db.insert(automationRules).values(values).returning();

export const updateRule = (db: Db, accountId: number, id: number, values: Partial<NewRule>) =>
  db
    .update(automationRules)
    .set(values)
    .where(and(eq(automationRules.accountId, accountId), eq(automationRules.id, id)))
    .returning();

export const deleteRule = (db: Db, accountId: number, id: number) =>
  db
    .delete(automationRules)
    .where(and(eq(automationRules.accountId, accountId), eq(automationRules.id, id)));

/** D1 binds at most 100 values per statement, so id lists are sliced. */
const slices = (ids: number[]) =>
  Array.from({ length: Math.ceil(ids.length / 90) }, (_, i) => ids.slice(i * 90, (i + 1) * 90));

export async function accountTeamIds(db: Db, accountId: number, ids: number[]) {
  const found = new Set<number>();
  for (const part of slices(ids)) {
    const rows = await db
      .select({ id: teams.id })
      .from(teams)
      .where(and(eq(teams.accountId, accountId), inArray(teams.id, part)))
      .all();
    for (const r of rows) {
      found.add(r.id);
    }
  }
  return found;
}

export async function accountAttachments(db: Db, accountId: number, ids: number[]) {
  const found: AttachmentRow[] = [];
  for (const part of slices(ids)) {
    found.push(
      ...(await db
        .select()
        .from(attachments)
        .where(and(eq(attachments.accountId, accountId), inArray(attachments.id, part)))
        .all()),
    );
  }
  return found;
}
