import { inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations, messages } from "../../db/schema";
import { type AsyncListenerContext, batched, type OutboxEvent } from "../../events/outbox-types";

/**
 * What the queued listeners (webhooks, bots, automation, notifications, templates) read of a
 * queue batch's events: the conversations and messages of all of them in one query each, shared
 * through the batch's memo, rather than one query per event and listener.
 */
type Reads = Pick<AsyncListenerContext, "db" | "memo" | "batch">;

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

/** The event's message, when it names one of its conversation (as `findMessage`). */
export async function eventMessage(ctx: Reads, event: OutboxEvent) {
  const row = await batched(
    ctx,
    "messages",
    event,
    (e) => (e.conversationId !== null && e.payload.message_id) || undefined,
    (ids) => findMessagesByIds(ctx.db, ids),
  );
  return row?.conversationId === event.conversationId ? row : undefined;
}
