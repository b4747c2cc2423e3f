import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations, type MessageRow, messages, users } from "../../db/schema";
import {
  type AsyncListenerContext,
  batched,
  memoized,
  type OutboxEvent,
} from "../../events/outbox-types";
import { findAccount } from "../accounts/queries";
import { findInboxById } from "../inboxes/queries.public";
import { loadMessageExtras } from "../messages/senders";

/**
 * What the queued listeners (webhooks, bots, automation, notifications, templates) read of a
 * queue batch's events: the conversations and messages of all of them in one query each, shared
 * through the batch's memo, rather than one query per event and listener.
 */
export type Reads = Pick<AsyncListenerContext, "db" | "memo" | "batch">;

const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

export const findConversationsByIds = async (db: Db, ids: number[]) =>
  byId(await db.select().from(conversations).where(inArray(conversations.id, ids)).all());

export const findMessagesByIds = async (db: Db, ids: number[]) =>
  byId(await db.select().from(messages).where(inArray(messages.id, ids)).all());

/** The event's conversation (as `findById` of conversations/queries). */
export const eventConversation = (ctx: Reads, event: OutboxEvent) =>
  batched(
    ctx,
    "conversations",
    event,
    (e) => e.conversationId ?? undefined,
    (ids) => findConversationsByIds(ctx.db, ids),
  );

const messageIdOf = (e: OutboxEvent) =>
  (e.conversationId !== null && e.payload.message_id) || undefined;

/** The event's message, when it names one of its conversation (as `findMessage`). */
export async function eventMessage(ctx: Reads, event: OutboxEvent) {
  const row = await batched(ctx, "messages", event, messageIdOf, (ids) =>
    findMessagesByIds(ctx.db, ids),
  );
  return row?.conversationId === event.conversationId ? row : undefined;
}

/**
 * The senders and attachments of the event's message (`loadMessageExtras`), loaded for the
 * messages of every event of the batch at once.
 */
export const eventMessageExtras = (ctx: Reads, event: OutboxEvent) =>
  batched(ctx, "message-extras", event, messageIdOf, async (ids) => {
    const wanted = new Set(ids);
    const events = (ctx.batch ?? [event]).filter((e) => wanted.has(messageIdOf(e) ?? 0));
    const rows = new Map<number, MessageRow>();
    for (const row of await Promise.all(events.map((e) => eventMessage(ctx, e)))) {
      if (row) {
        rows.set(row.id, row);
      }
    }
    const extras = await loadMessageExtras(ctx.db, [...rows.values()]);
    return new Map(ids.map((id) => [id, extras]));
  });

const findUserEmail = async (db: Db, id: number) =>
  (await db.select({ email: users.email }).from(users).where(eq(users.id, id)).get())?.email;

/** A user's email (a webhook names a user sender by it), once per batch and user. */
export const userEmail = (ctx: Reads, id: number) =>
  memoized(ctx, `user-email:${id}`, () => findUserEmail(ctx.db, id));

/** The account and the inbox, once per batch each (as `findAccount` and `findInboxById`). */
export const batchAccount = (ctx: Reads, id: number) =>
  memoized(ctx, `account:${id}`, () => findAccount(ctx.db, id));

export const batchInbox = (ctx: Reads, id: number) =>
  memoized(ctx, `inbox:${id}`, () => findInboxById(ctx.db, id));
