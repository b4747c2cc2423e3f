import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { cannedResponses } from "../../db/schema";

export type NewCannedResponse = typeof cannedResponses.$inferInsert;

const byAccount = (accountId: number) => eq(cannedResponses.accountId, accountId);

/** Every canned response of the account, oldest first (Chatwoot's default order). */
export const listCannedResponses = (db: Db, accountId: number) =>
  db
    .select()
    .from(cannedResponses)
    .where(byAccount(accountId))
    .orderBy(asc(cannedResponses.id))
    .all();

/**
 * Chatwoot parity (CannedResponse.order_by_search): short codes or contents containing `term`,
 * case-insensitive; short codes starting with it first, then short codes containing it, then
 * contents. `instr` rather than LIKE: the term's `%` and `_` are plain characters.
 */
export function searchCannedResponses(db: Db, accountId: number, term: string) {
  const folded = term.toLowerCase();
  const code = sql`lower(${cannedResponses.shortCode})`;
  const content = sql`lower(${cannedResponses.content})`;
  const rank = sql`CASE WHEN instr(${code}, ${folded}) = 1 THEN 2 WHEN instr(${code}, ${folded}) > 0 THEN 1 ELSE 0 END`;
  return db
    .select()
    .from(cannedResponses)
    .where(
      and(
        byAccount(accountId),
        sql`(instr(${code}, ${folded}) > 0 OR instr(${content}, ${folded}) > 0)`,
      ),
    )
    .orderBy(desc(rank), asc(cannedResponses.id))
    .all();
}

export const findCannedResponse = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(cannedResponses)
    .where(and(byAccount(accountId), eq(cannedResponses.id, id)))
    .get();

export const findByShortCode = (db: Db, accountId: number, shortCode: string, exceptId = 0) =>
  db
    .select({ id: cannedResponses.id })
    .from(cannedResponses)
    .where(
      and(
        byAccount(accountId),
        eq(cannedResponses.shortCode, shortCode),
        ne(cannedResponses.id, exceptId),
      ),
    )
    .get();

export const insertCannedResponse = (db: Db, values: NewCannedResponse) =>
  db.insert(cannedResponses).values(values).returning();

export const updateCannedResponse = (
  db: Db,
  accountId: number,
  id: number,
  values: Partial<NewCannedResponse>,
) =>
  db
    .update(cannedResponses)
    .set(values)
    .where(and(byAccount(accountId), eq(cannedResponses.id, id)))
    .returning();

export const deleteCannedResponse = (db: Db, accountId: number, id: number) =>
  db.delete(cannedResponses).where(and(byAccount(accountId), eq(cannedResponses.id, id)));
