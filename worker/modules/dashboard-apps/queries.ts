import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { dashboardApps } from "../../db/schema";

export type NewDashboardApp = typeof dashboardApps.$inferInsert;

const byAccount = (accountId: number) => eq(dashboardApps.accountId, accountId);

/** The account's apps, oldest first: the order of their tabs. */
export const listDashboardApps = (db: Db, accountId: number) =>
  db.select().from(dashboardApps).where(byAccount(accountId)).orderBy(asc(dashboardApps.id)).all();

export const findDashboardApp = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(dashboardApps)
    .where(and(byAccount(accountId), eq(dashboardApps.id, id)))
    .get();

export const countDashboardApps = async (db: Db, accountId: number) =>
  (await db.select({ n: count() }).from(dashboardApps).where(byAccount(accountId)).get())?.n ?? 0;

export const insertDashboardApp = (db: Db, values: NewDashboardApp) =>
  db.insert(dashboardApps).values(values).returning();

export const updateDashboardApp = (
  db: Db,
  accountId: number,
  id: number,
  values: Partial<NewDashboardApp>,
) =>
  db
    .update(dashboardApps)
    .set(values)
    .where(and(byAccount(accountId), eq(dashboardApps.id, id)))
    .returning();

export const deleteDashboardApp = (db: Db, accountId: number, id: number) =>
  db.delete(dashboardApps).where(and(byAccount(accountId), eq(dashboardApps.id, id)));
