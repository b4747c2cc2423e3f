import {
  and,
  asc,
  eq,
  gt,
  isNotNull,
  isNull,
  lte,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import type { Db } from "../../db/client";
import { accountUsers, conversations, inboxes, inboxMembers } from "../../db/schema";
import { AVAILABILITY_STATUS, IS_ONLINE } from "../agents/presence";

/** An agent's open conversations in an inbox, as SQL (the capacity auto-assignment respects). */
const openAssigned = (userId: SQLWrapper | number, inboxId: number) =>
  sql`(SELECT COUNT(*) FROM ${conversations} oc
    WHERE oc.assignee_id = ${userId} AND oc.inbox_id = ${inboxId} AND oc.status = 'open')`;

/**
 * The inbox's members auto-assignment may pick, best first (Chatwoot's balanced assignment):
 * online, under the inbox's cap, with the fewest open conversations of the inbox, then the one
 * assigned least recently.
 */
export const eligibleMembers = (db: Db, accountId: number, inboxId: number, cap: number | null) =>
  db
    .select({ userId: inboxMembers.userId })
    .from(inboxMembers)
    .innerJoin(
      accountUsers,
      and(eq(accountUsers.userId, inboxMembers.userId), eq(accountUsers.accountId, accountId)),
    )
    .where(
      and(
        eq(inboxMembers.inboxId, inboxId),
        IS_ONLINE,
        cap === null ? undefined : sql`${openAssigned(inboxMembers.userId, inboxId)} < ${cap}`,
      ),
    )
    .orderBy(
      openAssigned(inboxMembers.userId, inboxId),
      sql`${inboxMembers.lastAssignedAt} IS NOT NULL`,
      asc(inboxMembers.lastAssignedAt),
      asc(inboxMembers.id),
    )
    .all();

/**
 * The condition of an auto-assignment, checked by the update itself: still open and unassigned,
 * and the agent still under the cap. SQLite runs one write at a time, so concurrent creations
 * can never push an agent past the cap between a count and its update.
 */
export const stillAssignable = (userId: number, inboxId: number, cap: number | null) =>
  and(
    isNull(conversations.assigneeId),
    eq(conversations.status, "open"),
    cap === null ? undefined : sql`${openAssigned(userId, inboxId)} < ${cap}`,
  ) as SQL;

export const touchMember = (db: Db, inboxId: number, userId: number, at: number) =>
  db
    .update(inboxMembers)
    .set({ lastAssignedAt: at })
    .where(and(eq(inboxMembers.inboxId, inboxId), eq(inboxMembers.userId, userId)));

/** Queues a conversation nobody could take (oldest first: its queue time is kept once set). */
export const enqueue = (db: Db, conversationId: number, at: number) =>
  db
    .update(conversations)
    .set({ assignmentQueuedAt: at })
    .where(
      and(
        eq(conversations.id, conversationId),
        isNull(conversations.assigneeId),
        isNull(conversations.assignmentQueuedAt),
      ),
    );

/** Leaves the queue (assigned by hand, or no longer open). */
export const dequeue = (db: Db, conversationId: number) =>
  db
    .update(conversations)
    .set({ assignmentQueuedAt: null })
    .where(eq(conversations.id, conversationId));

/** Empties an inbox's queue (its auto-assignment was switched off), through its partial index. */
export const clearQueue = (db: Db, inboxId: number) =>
  db
    .update(conversations)
    .set({ assignmentQueuedAt: null })
    .where(and(eq(conversations.inboxId, inboxId), isNotNull(conversations.assignmentQueuedAt)));

/** An inbox's queue, oldest first, through its partial index. */
export const queued = (db: Db, inboxId: number, limit: number) =>
  db
    .select()
    .from(conversations)
    .where(and(eq(conversations.inboxId, inboxId), isNotNull(conversations.assignmentQueuedAt)))
    .orderBy(asc(conversations.assignmentQueuedAt), asc(conversations.id))
    .limit(limit)
    .all();

/**
 * The inboxes with a queue after `after`, ascending (the cron's safety net, which takes turns:
 * modules/schedule/rotation.ts), through the same partial index.
 */
export const inboxesWithQueue = (db: Db, after: number, limit: number, upTo?: number) =>
  db
    .selectDistinct({ inboxId: conversations.inboxId })
    .from(conversations)
    .where(
      and(
        isNotNull(conversations.assignmentQueuedAt),
        gt(conversations.inboxId, after),
        upTo === undefined ? undefined : lte(conversations.inboxId, upTo),
      ),
    )
    .orderBy(asc(conversations.inboxId))
    .limit(limit);

/** An agent's auto-assigning inboxes in an account (to drain when they come online). */
export const autoAssigningInboxesOf = (db: Db, accountId: number, userId: number) =>
  db
    .select({ inboxId: inboxes.id })
    .from(inboxMembers)
    .innerJoin(inboxes, eq(inboxes.id, inboxMembers.inboxId))
    .where(
      and(
        eq(inboxMembers.userId, userId),
        eq(inboxes.accountId, accountId),
        eq(inboxes.enableAutoAssignment, true),
      ),
    )
    .all();

/** Records whether the agent has a live socket; answers the row only if that changed. */
export const setConnected = (db: Db, accountId: number, userId: number, at: number | null) =>
  db
    .update(accountUsers)
    .set({ connectedAt: at })
    .where(
      and(
        eq(accountUsers.accountId, accountId),
        eq(accountUsers.userId, userId),
        at === null ? isNotNull(accountUsers.connectedAt) : isNull(accountUsers.connectedAt),
      ),
    )
    .returning({ status: AVAILABILITY_STATUS })
    .get();
