import { and, asc, count, desc, eq, gte, lte, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations, reportingEvents } from "../../db/schema";

export type EventFilter = {
  since?: number;
  until?: number;
  inboxId?: number;
  userId?: number;
  name?: string;
};

const columns = { event: reportingEvents, displayId: conversations.displayId };

const joined = (db: Db) =>
  db
    .select(columns)
    .from(reportingEvents)
    .leftJoin(conversations, eq(conversations.id, reportingEvents.conversationId));

function conditions(accountId: number, f: EventFilter): SQL | undefined {
  return and(
    eq(reportingEvents.accountId, accountId),
    f.since === undefined ? undefined : gte(reportingEvents.createdAt, f.since),
    f.until === undefined ? undefined : lte(reportingEvents.createdAt, f.until),
    f.inboxId === undefined ? undefined : eq(reportingEvents.inboxId, f.inboxId),
    f.userId === undefined ? undefined : eq(reportingEvents.userId, f.userId),
    f.name === undefined ? undefined : eq(reportingEvents.name, f.name),
  );
}

/** A page of the account's reporting events, newest first, and how many match. */
export async function reportingEventPage(
  db: Db,
  accountId: number,
  filter: EventFilter,
  limit: number,
  offset: number,
) {
  const where = conditions(accountId, filter);
  const [rows, total] = await Promise.all([
    joined(db)
      .where(where)
      .orderBy(desc(reportingEvents.createdAt), desc(reportingEvents.id))
      .limit(limit)
      .offset(offset)
      .all(),
    db.select({ n: count() }).from(reportingEvents).where(where).get(),
  ]);
  return { rows, count: total?.n ?? 0 };
}

/** One conversation's reporting events, oldest first (Chatwoot's order). */
export const conversationReportingEvents = (db: Db, accountId: number, conversationId: number) =>
  joined(db)
    .where(
      and(
        eq(reportingEvents.accountId, accountId),
        eq(reportingEvents.conversationId, conversationId),
      ),
    )
    .orderBy(asc(reportingEvents.createdAt), asc(reportingEvents.id))
    .all();

export type ReportingEventRow = Awaited<ReturnType<typeof conversationReportingEvents>>[number];
