import { and, asc, count, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  agentBots,
  type DeliveryStatus,
  type DeliveryTarget,
  inboxes,
  webhookDeliveries,
  webhooks,
} from "../../db/schema";

export type NewDelivery = typeof webhookDeliveries.$inferInsert;

/**
 * Writes the deliveries of an event (one statement each: D1 binds at most 100 parameters to
 * one; re-running an event writes nothing twice, by the unique index) and returns the ids of
 * its deliveries that never went out: these, or those a crash kept from being queued.
 */
export async function writeDeliveries(db: Db, eventId: number, rows: NewDelivery[]) {
  const inserts = rows.map((row) => insertDeliveries(db, [row]));
  const results = await db.batch([...inserts, unsentOf(db, eventId)] as [Unsent]);
  return (results[results.length - 1] as { id: number }[]).map((r) => r.id);
}

/** Re-running an event creates nothing twice (unique per event, target and event name). */
const insertDeliveries = (db: Db, rows: NewDelivery[]) =>
  db.insert(webhookDeliveries).values(rows).onConflictDoNothing();

const unsentOf = (db: Db, eventId: number) =>
  db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.eventId, eventId),
        eq(webhookDeliveries.status, "pending"),
        eq(webhookDeliveries.attempts, 0),
      ),
    );
type Unsent = ReturnType<typeof unsentOf>;

/**
 * Takes a due delivery for one attempt: `next_attempt_at` becomes the lease's end, so a second
 * message for the same delivery (a redelivered or swept one) finds it taken and does nothing.
 */
export async function claimDelivery(db: Db, id: number, dueBy: number, leaseUntil: number) {
  // The receiver's row comes in the same round trip (ids of different kinds may coincide:
  // the caller picks by target_type).
  const targetId = sql`(SELECT ${webhookDeliveries.targetId} FROM ${webhookDeliveries} WHERE ${webhookDeliveries.id} = ${id})`;
  const [[row], [webhook], [inbox], [bot]] = await db.batch([
    db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: leaseUntil })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          inArray(webhookDeliveries.status, ["pending", "retrying"]),
          or(isNull(webhookDeliveries.nextAttemptAt), lt(webhookDeliveries.nextAttemptAt, dueBy)),
        ),
      )
      .returning(),
    db.select().from(webhooks).where(eq(webhooks.id, targetId)),
    db
      .select({ id: inboxes.id, hmacToken: inboxes.hmacToken })
      .from(inboxes)
      .where(eq(inboxes.id, targetId)),
    db
      .select({ id: agentBots.id, secret: agentBots.secret })
      .from(agentBots)
      .where(eq(agentBots.id, targetId)),
  ]);
  return row ? { row, webhook, inbox, bot } : undefined;
}

export type Claimed = NonNullable<Awaited<ReturnType<typeof claimDelivery>>>;

export type AttemptRecord = {
  at: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  status: DeliveryStatus;
  nextAttemptAt: number | null;
};

/** Appends the attempt to the log in SQL (no read-modify-write of the JSON). */
export const recordAttempt = (db: Db, id: number, a: AttemptRecord) =>
  db
    .update(webhookDeliveries)
    .set({
      status: a.status,
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      attemptLog: sql`json_insert(${webhookDeliveries.attemptLog}, '$[#]', json(${JSON.stringify({
        at: a.at,
        status_code: a.statusCode,
        latency_ms: a.latencyMs,
        error: a.error,
      })}))`,
      lastStatusCode: a.statusCode,
      lastError: a.error,
      lastLatencyMs: a.latencyMs,
      nextAttemptAt: a.nextAttemptAt,
      updatedAt: a.at,
    })
    .where(eq(webhookDeliveries.id, id));

const ofTarget = (type: DeliveryTarget, id: number) =>
  and(eq(webhookDeliveries.targetType, type), eq(webhookDeliveries.targetId, id));

export async function deliveryPage(
  db: Db,
  webhookId: number,
  opts: { status?: DeliveryStatus; offset: number; limit: number },
) {
  const where = and(
    ofTarget("webhook", webhookId),
    opts.status ? eq(webhookDeliveries.status, opts.status) : undefined,
  );
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.id))
      .limit(opts.limit)
      .offset(opts.offset),
    db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** A delivery of the webhook by its numeric id or its delivery id (X-Service-Delivery). */
export const findDeliveryOf = (db: Db, webhookId: number, key: string) =>
  db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        ofTarget("webhook", webhookId),
        /^\d{1,15}$/.test(key)
          ? eq(webhookDeliveries.id, Number(key))
          : eq(webhookDeliveries.deliveryId, key),
      ),
    )
    .get();

/** Queued again from the first retry step, to `url`; the delivery id and the log stay. */
export const requeueDeliveries = (db: Db, ids: number[], url: string, at: number) =>
  db
    .update(webhookDeliveries)
    .set({ status: "pending", attempts: 0, nextAttemptAt: at, url, updatedAt: at })
    .where(inArray(webhookDeliveries.id, ids))
    .returning({ id: webhookDeliveries.id });

export async function failedDeliveryIds(db: Db, webhookId: number, limit: number) {
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(ofTarget("webhook", webhookId), eq(webhookDeliveries.status, "failed")))
    .orderBy(asc(webhookDeliveries.id))
    .limit(limit)
    .all();
  return rows.map((r) => r.id);
}

/** Deliveries whose queue message was lost: due (or leased) long ago and still not done. */
export async function overdueDeliveryIds(db: Db, dueBefore: number, limit: number) {
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ["pending", "retrying"]),
        lt(webhookDeliveries.nextAttemptAt, dueBefore),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit)
    .all();
  return rows.map((r) => r.id);
}

export const findDelivery = (db: Db, id: number) =>
  db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).get();
