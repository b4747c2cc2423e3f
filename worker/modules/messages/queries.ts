import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  lt,
  max,
  type SQL,
  sql,
} from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import {
  attachments,
  contactInboxes,
  contacts,
  conversations,
  idLeases,
  messages,
} from "../../db/schema";

export type NewMessage = typeof messages.$inferInsert;
export type NewAttachment = typeof attachments.$inferInsert;

/**
 * Leases the next `size` message ids: `[first, end)`. The block starts above every id stored,
 * so rows written straight into D1 (an import) never take an id a later lease hands out again;
 * one statement, so two rooms leasing at once get disjoint blocks.
 */
export async function leaseMessageIds(db: Db, size: number) {
  const floor = sql<number>`(SELECT coalesce(max(${messages.id}), 0) + 1 FROM ${messages})`;
  const row = await db
    .insert(idLeases)
    .values({ name: "messages", nextId: sql`${floor} + ${size}` })
    .onConflictDoUpdate({
      target: idLeases.name,
      set: { nextId: sql`max(${idLeases.nextId}, ${floor}) + ${size}` },
    })
    .returning({ end: idLeases.nextId })
    .get();
  const end = (row as { end: number }).end;
  return { first: end - size, end };
}

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

/** The stored messages of `keys` (a group's retries), in one read. */
export const findByIdempotencyKeys = (db: Db, conversationId: number, keys: string[]) =>
  db
    .select()
    .from(messages)
    .where(
      and(eq(messages.conversationId, conversationId), inArray(messages.idempotencyKey, keys)),
    );

/** The conversation's idempotency keys of messages created since `since` (seconds). */
export const keysSince = (db: Db, conversationId: number, since: number) =>
  db
    .select({ key: sql<string>`${messages.idempotencyKey}`, at: messages.createdAt })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        isNotNull(messages.idempotencyKey),
        gte(messages.createdAt, since),
      ),
    );

/** The conversation's contact as D1 has it when the statement runs. */
const contactOf = (conversationId: number) =>
  sql<number>`(SELECT ${sql.identifier("contact_id")} FROM ${conversations} WHERE ${sql.identifier("id")} = ${conversationId})`;

/**
 * A contact's message names the conversation's contact as D1 has it when the insert runs, not
 * as the room had it: a message still in a room's log when its contact was merged into another
 * reaches D1 under the contact it was merged into (a contact's messages are always its
 * conversation's contact's).
 */
export function insertMessage(
  db: Db,
  values: NewMessage & { conversationId: number },
  /** false: only the id comes back (the log's replication, which has the row already). */
  row = true,
) {
  const insert = db.insert(messages).values({
    ...values,
    senderId: values.senderType === "Contact" ? contactOf(values.conversationId) : values.senderId,
  });
  return row ? insert.returning() : insert.returning({ id: messages.id });
}

/**
 * Moves the conversation's clocks. `returning`: the row as the message left it (the room keeps
 * it; asked of a group's last message only, since reading rows back costs CPU per column).
 */
export function touchConversation(
  db: Db,
  conversationId: number,
  touch: MessageTouch,
  returning = false,
) {
  const at = touch.at;
  const clocks: SQLiteUpdateSetSource<typeof conversations> = { updatedAt: at };
  if (touch.kind === "incoming") {
    clocks.lastActivityAt = at;
    clocks.waitingSince = sql`COALESCE(${conversations.waitingSince}, ${at})`;
  } else if (touch.kind === "human_reply") {
    clocks.lastActivityAt = at;
    clocks.waitingSince = null;
    clocks.firstReplyCreatedAt = sql`COALESCE(${conversations.firstReplyCreatedAt}, ${at})`;
  } else if (touch.kind === "activity") {
    clocks.lastActivityAt = at;
  }
  const update = db.update(conversations).set(clocks).where(eq(conversations.id, conversationId));
  return returning ? update.returning() : update;
}

/** The conversation's contact (as D1 has it then, as for `insertMessage`) was active at `at`. */
export const touchContact = (db: Db, conversationId: number, at: number) =>
  db
    .update(contacts)
    .set({ lastActivityAt: at })
    .where(eq(contacts.id, contactOf(conversationId)));

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

/** Messages of a conversation around a cursor, in seq order (oldest first). */
export function pageMessages(
  db: Db,
  conversationId: number,
  cursor: { before?: number; after?: number },
  limit: number,
) {
  if (cursor.after !== undefined) {
    return db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), gt(messages.seq, cursor.after)))
      .orderBy(asc(messages.seq))
      .limit(limit);
  }
  const newest = db
    .select()
    .from(messages)
    .where(
      cursor.before === undefined
        ? eq(messages.conversationId, conversationId)
        : and(eq(messages.conversationId, conversationId), lt(messages.seq, cursor.before)),
    )
    .orderBy(desc(messages.seq))
    .limit(limit);
  return newest.then((rows) => rows.reverse());
}

export const findMessage = (db: Db, conversationId: number, id: number) =>
  db
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.conversationId, conversationId)))
    .get();

export type CounterInput = {
  id: number;
  contactInboxId: number | null;
};

/**
 * Whether a message (joined with its conversation) came after the agents last read: by seq once
 * a read recorded one, so a message stored in the second of the read is still unread (clocks are
 * whole seconds); by time for a mark without one (Chatwoot's `unread`, older rows).
 */
export const unseenByAgents = sql`CASE WHEN ${conversations.agentLastSeenSeq} IS NULL
  THEN ${messages.createdAt} > coalesce(${conversations.agentLastSeenAt}, 0)
  ELSE ${messages.seq} > ${conversations.agentLastSeenSeq} END`;

/** The newest seq stored in a conversation (0 when none), read inside the statement using it. */
export const newestSeq = (conversationId: number) =>
  sql<number>`(SELECT coalesce(max(${messages.seq}), 0) FROM ${messages} WHERE ${messages.conversationId} = ${conversationId})`;

/**
 * Chatwoot's unread_count (incoming messages the agents have not seen) and the conversation's
 * contact_inbox source_id: two statements, for a batch of the caller's (the room adds them to a
 * message's own write). The read mark is the stored one, not the caller's copy of the row.
 */
export const counterStatements = (db: Db, conversation: CounterInput) =>
  [
    db
      .select({ n: count() })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(
        and(
          eq(messages.conversationId, conversation.id),
          eq(messages.messageType, 0),
          unseenByAgents,
        ),
      ),
    db
      .select({ sourceId: contactInboxes.sourceId })
      .from(contactInboxes)
      .where(eq(contactInboxes.id, conversation.contactInboxId ?? 0)),
  ] as const;

export type Counters = { unread: number; sourceId: string | null };

/** Reads the two results of counterStatements. */
export const countersFrom = ([unread, source]: readonly unknown[]): Counters => ({
  unread: (unread as { n: number }[] | undefined)?.[0]?.n ?? 0,
  sourceId: (source as { sourceId: string | null }[] | undefined)?.[0]?.sourceId ?? null,
});

/** The counters in one D1 round trip of their own. */
export async function conversationCounters(db: Db, conversation: CounterInput): Promise<Counters> {
  return countersFrom(await db.batch(counterStatements(db, conversation)));
}

/** Chatwoot parity: a contact writing into a resolved or snoozed conversation reopens it. */
export const reopenConversation = (db: Db, id: number, status: "open" | "pending", at: number) =>
  db
    .update(conversations)
    .set({ status, snoozedUntil: null, updatedAt: at })
    .where(and(eq(conversations.id, id), inArray(conversations.status, ["resolved", "snoozed"])))
    .returning({ id: conversations.id });

export const insertAttachment = (
  db: Db,
  values: Omit<NewAttachment, "messageId"> & { messageId: number | SQL<number> },
) => db.insert(attachments).values(values).returning();

/** A message's attachments, as a statement for a batch of the caller's. */
export const attachmentsOf = (db: Db, messageId: number) =>
  db.select().from(attachments).where(eq(attachments.messageId, messageId));

export const attachmentKeysOf = async (db: Db, messageId: number) =>
  (
    await db
      .select({ key: attachments.storageKey })
      .from(attachments)
      .where(eq(attachments.messageId, messageId))
  ).map((r) => r.key);

export const deleteAttachmentsOf = (db: Db, messageId: number) =>
  db.delete(attachments).where(eq(attachments.messageId, messageId));
