import { count, desc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { auditLogs, users } from "../../db/schema";

export type NewAuditLog = typeof auditLogs.$inferInsert;

/** The insert to add to the batch of the audited change itself. */
export const auditLogStatement = (
  db: Db,
  values: Omit<NewAuditLog, "auditableId"> & { auditableId: number | null | SQL },
) => db.insert(auditLogs).values(values);

/** A page of the account's audit log, newest first, with who acted (their email). */
export async function auditLogPage(db: Db, accountId: number, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    db
      .select({ log: auditLogs, email: users.email })
      .from(auditLogs)
      .leftJoin(users, eq(users.id, auditLogs.userId))
      .where(eq(auditLogs.accountId, accountId))
      .orderBy(desc(auditLogs.id))
      .limit(limit)
      .offset(offset)
      .all(),
    db.select({ n: count() }).from(auditLogs).where(eq(auditLogs.accountId, accountId)).get(),
  ]);
  return { rows, total: total?.n ?? 0 };
}
