import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { labels } from "../../db/schema";

export type NewLabel = typeof labels.$inferInsert;

export const listLabels = (db: Db, accountId: number) =>
  db.select().from(labels).where(eq(labels.accountId, accountId)).orderBy(asc(labels.id)).all();

export const findLabel = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(labels)
    .where(and(eq(labels.accountId, accountId), eq(labels.id, id)))
    .get();

/** Another label of the account already titled `title` (excluding `exceptId`). */
export const findLabelByTitle = (db: Db, accountId: number, title: string, exceptId = 0) =>
  db
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.accountId, accountId), eq(labels.title, title), ne(labels.id, exceptId)))
    .get();

export const insertLabel = (db: Db, values: NewLabel) =>
  db.insert(labels).values(values).returning();

export const updateLabel = (db: Db, accountId: number, id: number, values: Partial<NewLabel>) =>
  db
    .update(labels)
    .set(values)
    .where(and(eq(labels.accountId, accountId), eq(labels.id, id)))
    .returning();

export const deleteLabel = (db: Db, accountId: number, id: number) =>
  db.delete(labels).where(and(eq(labels.accountId, accountId), eq(labels.id, id)));
