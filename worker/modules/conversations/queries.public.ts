import { and, asc, desc, eq, inArray, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { MessageRow } from "../../db/schema";
import { conversations, messages } from "../../db/schema";
import { type ContactViewer, ownedByContact } from "./queries";

/** Public API reads: a contact's own conversations and their non-private messages. */

export const findOwnedByDisplayId = (
  db: Db,
  accountId: number,
  viewer: ContactViewer,
  displayId: number,
) =>
  db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.accountId, accountId),
        eq(conversations.displayId, displayId),
        ownedByContact(db, viewer),
      ),
    )
    .get();

/** The contact's latest conversations (by creation), returned oldest first. */
export async function listOwned(db: Db, accountId: number, viewer: ContactViewer, limit: number) {
  const rows = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), ownedByContact(db, viewer)))
    .orderBy(desc(conversations.id))
    .limit(limit)
    .all();
  return rows.reverse();
}

const notPrivate = eq(messages.private, false);

/**
 * The latest `perConversation` non-private messages of each conversation, in one query per 90
 * conversations (D1 binds at most 100 parameters), ordered by conversation then seq.
 */
export async function latestPublicMessages(
  db: Db,
  conversationIds: number[],
  perConversation: number,
): Promise<MessageRow[]> {
  const out: MessageRow[] = [];
  for (let i = 0; i < conversationIds.length; i += 90) {
    const ids = conversationIds.slice(i, i + 90);
    const ranked = db.$with("ranked").as(
      db
        .select({
          id: messages.id,
          rank: sql<number>`row_number() OVER (PARTITION BY ${messages.conversationId} ORDER BY ${messages.seq} DESC)`.as(
            "rank",
          ),
        })
        .from(messages)
        .where(and(inArray(messages.conversationId, ids), notPrivate)),
    );
    const rows = await db
      .with(ranked)
      .select()
      .from(messages)
      .where(
        inArray(
          messages.id,
          db
            .select({ id: ranked.id })
            .from(ranked)
            .where(sql`${ranked.rank} <= ${perConversation}`),
        ),
      )
      .orderBy(asc(messages.conversationId), asc(messages.seq))
      .all();
    out.push(...rows);
  }
  return out;
}

/**
 * E20: non-private messages before `beforeSeq` (or the latest), oldest first. Chatwoot's
 * public message finder (filter_internal_messages) also leaves out activity notes (type 2).
 */
export async function publicMessagePage(
  db: Db,
  conversationId: number,
  beforeSeq: number | undefined,
  limit: number,
): Promise<MessageRow[]> {
  const rows = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        notPrivate,
        ne(messages.messageType, 2),
        beforeSeq === undefined ? undefined : lt(messages.seq, beforeSeq),
      ),
    )
    .orderBy(desc(messages.seq))
    .limit(limit)
    .all();
  return rows.reverse();
}

/** A message of the conversation that the contact may see (private notes are never found). */
export const findPublicMessage = (db: Db, conversationId: number, id: number) =>
  db
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.conversationId, conversationId), notPrivate))
    .get();
