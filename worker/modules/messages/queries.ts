import { and, desc, eq, max, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { contacts, conversations, messages } from "../../db/schema";

export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;

/**
 * How a new message moves its conversation's clocks (Chatwoot parity): a contact's message
 * starts the wait if none is running; a human agent's public reply ends it and may be the
 * first reply; anything else only counts as activity.
 */
export type MessageTouch = { kind: "incoming" | "human_reply" | "activity" | "none"; at: number };

export const maxSeq = async (db: Db, conversationId: number) => {
  const row = await db
    .select({ seq: max(messages.seq) })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .get();
  return row?.seq ?? 0;
};

export const findByIdempotencyKey = (db: Db, conversationId: number, key: string) =>
  db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.idempotencyKey, key)))
    .get();

export const insertMessage = (db: Db, values: NewMessage) =>
  db.insert(messages).values(values).returning();

export function touchConversation(db: Db, conversationId: number, touch: MessageTouch) {
  const at = touch.at;
  const base = { updatedAt: at };
  switch (touch.kind) {
    case "incoming":
      return db
        .update(conversations)
        .set({
          ...base,
          lastActivityAt: at,
          waitingSince: sql`COALESCE(${conversations.waitingSince}, ${at})`,
        })
        .where(eq(conversations.id, conversationId));
    case "human_reply":
      return db
        .update(conversations)
        .set({
          ...base,
          lastActivityAt: at,
          waitingSince: null,
          firstReplyCreatedAt: sql`COALESCE(${conversations.firstReplyCreatedAt}, ${at})`,
        })
        .where(eq(conversations.id, conversationId));
    case "activity":
      return db
        .update(conversations)
        .set({ ...base, lastActivityAt: at })
        .where(eq(conversations.id, conversationId));
    default:
      return db.update(conversations).set(base).where(eq(conversations.id, conversationId));
  }
}

export const touchContact = (db: Db, contactId: number, at: number) =>
  db.update(contacts).set({ lastActivityAt: at }).where(eq(contacts.id, contactId));

export const updateMessageRow = (
  db: Db,
  conversationId: number,
  id: number,
  values: Partial<NewMessage>,
) =>
  db
    .update(messages)
    .set(values)
    .where(and(eq(messages.id, id), eq(messages.conversationId, conversationId)))
    .returning();

export const latestMessages = (db: Db, conversationId: number, limit: number) =>
  db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(desc(messages.seq))
    .limit(limit);
