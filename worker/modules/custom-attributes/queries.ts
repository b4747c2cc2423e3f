import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type AttributeModel, customAttributeDefinitions as defs } from "../../db/schema";

export type NewDefinition = typeof defs.$inferInsert;

export const listDefinitions = (db: Db, accountId: number, model?: AttributeModel) =>
  db
    .select()
    .from(defs)
    .where(and(eq(defs.accountId, accountId), model ? eq(defs.attributeModel, model) : undefined))
    .orderBy(asc(defs.id))
    .all();

export const findDefinition = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(defs)
    .where(and(eq(defs.accountId, accountId), eq(defs.id, id)))
    .get();

/** Another definition of the account and model with this key (excluding `exceptId`). */
export const findDefinitionByKey = (
  db: Db,
  accountId: number,
  model: AttributeModel,
  key: string,
  exceptId = 0,
) =>
  db
    .select({ id: defs.id })
    .from(defs)
    .where(
      and(
        eq(defs.accountId, accountId),
        eq(defs.attributeModel, model),
        eq(defs.attributeKey, key),
        ne(defs.id, exceptId),
      ),
    )
    .get();

export const insertDefinition = (db: Db, values: NewDefinition) =>
  db.insert(defs).values(values).returning();

export const updateDefinition = (
  db: Db,
  accountId: number,
  id: number,
  values: Partial<NewDefinition>,
) =>
  db
    .update(defs)
    .set(values)
    .where(and(eq(defs.accountId, accountId), eq(defs.id, id)))
    .returning();

export const deleteDefinition = (db: Db, accountId: number, id: number) =>
  db.delete(defs).where(and(eq(defs.accountId, accountId), eq(defs.id, id)));
