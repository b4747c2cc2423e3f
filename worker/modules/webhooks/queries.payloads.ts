import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, contactInboxes, conversations, inboxes, messages, users } from "../../db/schema";

export const findContactInboxRow = (db: Db, id: number) =>
  db.select().from(contactInboxes).where(eq(contactInboxes.id, id)).get();

/** The visitor's current conversation in a widget event: the latest of its contact_inbox. */
export const latestConversationOf = (db: Db, contactInboxId: number) =>
  db
    .select()
    .from(conversations)
    .where(eq(conversations.contactInboxId, contactInboxId))
    .orderBy(desc(conversations.id))
    .limit(1)
    .get();

/** A message event's rows in one round trip: the conversation, message, account, inbox, user. */
export async function messageEventRows(
  db: Db,
  accountId: number,
  conversationId: number,
  messageId: number,
) {
  const message = and(eq(messages.id, messageId), eq(messages.conversationId, conversationId));
  const senderUser = sql`(SELECT ${messages.senderId} FROM ${messages} WHERE ${messages.id} = ${messageId} AND ${messages.senderType} = 'User')`;
  const [[conversation], [row], [account], [inbox], [user]] = await db.batch([
    db.select().from(conversations).where(eq(conversations.id, conversationId)),
    db.select().from(messages).where(message),
    db
      .select({ id: accounts.id, name: accounts.name })
      .from(accounts)
      .where(eq(accounts.id, accountId)),
    db
      .select({ id: inboxes.id, name: inboxes.name })
      .from(inboxes)
      .where(
        eq(
          inboxes.id,
          sql`(SELECT ${messages.inboxId} FROM ${messages} WHERE ${messages.id} = ${messageId})`,
        ),
      ),
    db.select({ email: users.email }).from(users).where(eq(users.id, senderUser)),
  ]);
  return { conversation, message: row, account, inbox, user };
}
