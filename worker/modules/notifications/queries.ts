import { and, count, desc, eq, inArray, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations, notificationSettings, notifications } from "../../db/schema";

export type NewNotification = typeof notifications.$inferInsert;

const mine = (accountId: number, userId: number) =>
  and(eq(notifications.accountId, accountId), eq(notifications.userId, userId));

/** Chatwoot parity (NotificationFinder): snoozed ones are hidden until their time comes. */
const visible = (now: number) =>
  or(isNull(notifications.snoozedUntil), lte(notifications.snoozedUntil, now));

const withConversation = { notification: notifications, conversation: conversations };

/** A page of the user's notifications, latest activity first, with their counts. */
export async function notificationPage(
  db: Db,
  accountId: number,
  userId: number,
  now: number,
  limit: number,
  offset: number,
) {
  const where = and(mine(accountId, userId), visible(now));
  // Not in one batch: D1's batch answers a join's same-named columns (id, status…) as one.
  const [rows, [total, unread]] = await Promise.all([
    db
      .select(withConversation)
      .from(notifications)
      .innerJoin(conversations, eq(conversations.id, notifications.conversationId))
      .where(where)
      .orderBy(desc(notifications.lastActivityAt), desc(notifications.id))
      .limit(limit)
      .offset(offset)
      .all(),
    db.batch([
      db.select({ n: count() }).from(notifications).where(where),
      db
        .select({ n: count() })
        .from(notifications)
        .where(and(where, isNull(notifications.readAt))),
    ]),
  ]);
  return { rows, count: total[0]?.n ?? 0, unread: unread[0]?.n ?? 0 };
}

export const unreadCount = async (db: Db, accountId: number, userId: number, now: number) =>
  (
    await db
      .select({ n: count() })
      .from(notifications)
      .where(and(mine(accountId, userId), visible(now), isNull(notifications.readAt)))
      .get()
  )?.n ?? 0;

export const findNotification = (db: Db, accountId: number, userId: number, id: number) =>
  db
    .select(withConversation)
    .from(notifications)
    .innerJoin(conversations, eq(conversations.id, notifications.conversationId))
    .where(and(mine(accountId, userId), eq(notifications.id, id)))
    .get();

export const updateNotification = (
  db: Db,
  accountId: number,
  userId: number,
  id: number,
  values: Partial<NewNotification>,
) =>
  db
    .update(notifications)
    .set(values)
    .where(and(mine(accountId, userId), eq(notifications.id, id)));

/** Marks the user's unread notifications read (only one conversation's when given). */
export const markAllRead = (
  db: Db,
  accountId: number,
  userId: number,
  at: number,
  conversationId?: number,
) =>
  db
    .update(notifications)
    .set({ readAt: at, updatedAt: at })
    .where(
      and(
        mine(accountId, userId),
        isNull(notifications.readAt),
        conversationId === undefined ? undefined : eq(notifications.conversationId, conversationId),
      ),
    );

export const deleteNotification = (db: Db, accountId: number, userId: number, id: number) =>
  db.delete(notifications).where(and(mine(accountId, userId), eq(notifications.id, id)));

export const deleteNotifications = (db: Db, accountId: number, userId: number, onlyRead: boolean) =>
  db
    .delete(notifications)
    .where(and(mine(accountId, userId), onlyRead ? isNotNull(notifications.readAt) : undefined));

/**
 * New rows (one already made for the same user, event and type is skipped: an event seen twice),
 * answered whole in insert order; and in the same transaction after them the unread count of
 * each of the rows' users (as `unreadCount`), so each count includes the row it is sent with.
 */
export async function insertCounting(
  db: Db,
  accountId: number,
  rows: NewNotification[],
  now: number,
) {
  const userIds = [...new Set(rows.map((r) => r.userId))];
  const [made, counts] = await db.batch([
    db.insert(notifications).values(rows).onConflictDoNothing().returning(),
    db
      .select({ userId: notifications.userId, n: count() })
      .from(notifications)
      .where(
        and(
          eq(notifications.accountId, accountId),
          inArray(notifications.userId, userIds),
          visible(now),
          isNull(notifications.readAt),
        ),
      )
      .groupBy(notifications.userId),
  ]);
  return { made, unread: new Map(counts.map((c) => [c.userId, c.n])) };
}

export const settingsOf = (db: Db, accountId: number, userIds: number[]) =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(notificationSettings)
        .where(
          and(
            eq(notificationSettings.accountId, accountId),
            inArray(notificationSettings.userId, userIds),
          ),
        )
        .all();

export const findSettings = (db: Db, accountId: number, userId: number) =>
  db
    .select()
    .from(notificationSettings)
    .where(
      and(eq(notificationSettings.accountId, accountId), eq(notificationSettings.userId, userId)),
    )
    .get();

/** Creates the row with `values`, or updates the given flags of the existing one. */
export const upsertSettings = (
  db: Db,
  values: typeof notificationSettings.$inferInsert,
  update: { emailFlags?: string[]; pushFlags?: string[]; updatedAt: number },
) =>
  db
    .insert(notificationSettings)
    .values(values)
    .onConflictDoUpdate({
      target: [notificationSettings.accountId, notificationSettings.userId],
      set: update,
    })
    .returning();

/** Counted as a conversation's display id for `read_all`'s primary_actor_id. */
export const conversationIdOf = async (db: Db, accountId: number, displayId: number) =>
  (
    await db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.accountId, accountId), eq(conversations.displayId, displayId)))
      .get()
  )?.id;
