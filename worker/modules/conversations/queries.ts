import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteInsertValue, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import {
  accountUsers,
  agentBotInboxes,
  contactInboxes,
  contacts,
  conversationLabels,
  conversations,
  inboxes,
  inboxMembers,
  messages,
} from "../../db/schema";
import type { Viewer } from "./policy";

export type NewConversation = typeof conversations.$inferInsert;
/** An update's values: each column's value, or SQL computed in the statement. */
export type ConversationValues = SQLiteUpdateSetSource<typeof conversations>;

/** The conversation by display_id, only if `viewer` sees its inbox (one statement). */
export const findVisibleByDisplayId = (
  db: Db,
  viewer: Viewer,
  accountId: number,
  displayId: number,
) =>
  db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.accountId, accountId),
        eq(conversations.displayId, displayId),
        visibleTo(db, viewer),
      ),
    )
    .get();

export const findById = (db: Db, id: number) =>
  db.select().from(conversations).where(eq(conversations.id, id)).get();

// --- visibility -------------------------------------------------------------------------------

/** The inbox ids a non-administrator may see, as a subquery; undefined means every inbox. */
export function visibleInboxIds(db: Db, viewer: Viewer) {
  switch (viewer.kind) {
    case "all":
      return undefined;
    case "agent":
      return db
        .select({ id: inboxMembers.inboxId })
        .from(inboxMembers)
        .where(eq(inboxMembers.userId, viewer.userId));
    case "bot":
      return db
        .select({ id: agentBotInboxes.inboxId })
        .from(agentBotInboxes)
        .where(
          and(eq(agentBotInboxes.agentBotId, viewer.botId), eq(agentBotInboxes.status, "active")),
        );
    case "contact":
      return db.select({ id: inboxes.id }).from(inboxes).where(eq(inboxes.id, viewer.inboxId));
  }
}

export type ContactViewer = Extract<Viewer, { kind: "contact" }>;

/**
 * A contact's own conversations in its inbox: those of its contact_inbox, or, when verified,
 * those of every verified contact_inbox of the contact there (Chatwoot parity).
 */
export function ownedByContact(db: Db, viewer: ContactViewer): SQL {
  const contactInbox = viewer.verified
    ? inArray(
        conversations.contactInboxId,
        db
          .select({ id: contactInboxes.id })
          .from(contactInboxes)
          .where(
            and(
              eq(contactInboxes.contactId, viewer.contactId),
              eq(contactInboxes.inboxId, viewer.inboxId),
              eq(contactInboxes.hmacVerified, true),
            ),
          ),
      )
    : eq(conversations.contactInboxId, viewer.contactInboxId);
  return and(
    eq(conversations.inboxId, viewer.inboxId),
    eq(conversations.contactId, viewer.contactId),
    contactInbox,
  ) as SQL;
}

/** Condition restricting conversations to what the viewer sees (undefined: no restriction). */
export function visibleTo(db: Db, viewer: Viewer): SQL | undefined {
  if (viewer.kind === "contact") {
    return ownedByContact(db, viewer);
  }
  const ids = visibleInboxIds(db, viewer);
  return ids ? inArray(conversations.inboxId, ids) : undefined;
}

export async function inboxVisibleTo(db: Db, viewer: Viewer, inboxId: number): Promise<boolean> {
  const ids = visibleInboxIds(db, viewer);
  if (!ids) {
    return true;
  }
  const row = await db
    .select({ id: inboxes.id })
    .from(inboxes)
    .where(and(eq(inboxes.id, inboxId), inArray(inboxes.id, ids)))
    .get();
  return row !== undefined;
}

// --- writes -----------------------------------------------------------------------------------

/**
 * The display_id comes from a subselect inside the insert itself, so two creates can never
 * read the same maximum; the unique index on (account_id, display_id) backs it.
 */
export const insertConversation = (
  db: Db,
  values: Omit<SQLiteInsertValue<typeof conversations>, "displayId"> & { accountId: number },
) =>
  db
    .insert(conversations)
    .values({
      ...values,
      displayId: sql`(SELECT COALESCE(MAX(display_id), 0) + 1 FROM conversations WHERE account_id = ${values.accountId})`,
    })
    .returning();

/** The id of the conversation with this freshly generated uuid, for later statements of its batch. */
export const conversationIdByUuid = (db: Db, uuid: string) =>
  sql`(${db.select({ id: conversations.id }).from(conversations).where(eq(conversations.uuid, uuid))})`;

export const updateConversationRow = (db: Db, id: number, values: ConversationValues) =>
  db.update(conversations).set(values).where(eq(conversations.id, id)).returning();

/** The same update, only while the row still matches `guard` (a timed change that may race). */
export const updateConversationIf = (
  db: Db,
  id: number,
  values: Partial<NewConversation>,
  guard: SQL,
) =>
  db
    .update(conversations)
    .set(values)
    .where(and(eq(conversations.id, id), guard))
    .returning();

// --- contact inboxes --------------------------------------------------------------------------

export const findContact = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)))
    .get();

export const findContactInbox = (db: Db, inboxId: number, sourceId: string) =>
  db
    .select()
    .from(contactInboxes)
    .where(and(eq(contactInboxes.inboxId, inboxId), eq(contactInboxes.sourceId, sourceId)))
    .get();

/** The contact's most recent presence in the inbox, reused when no source_id is given. */
export const latestContactInbox = (db: Db, contactId: number, inboxId: number) =>
  db
    .select()
    .from(contactInboxes)
    .where(and(eq(contactInboxes.contactId, contactId), eq(contactInboxes.inboxId, inboxId)))
    .orderBy(desc(contactInboxes.id))
    .limit(1)
    .get();

/** A source_id alone names a contact inbox of any of the account's inboxes (oldest first). */
export const findContactInboxInAccount = (db: Db, accountId: number, sourceId: string) =>
  db
    .select({ contactInbox: contactInboxes })
    .from(contactInboxes)
    .innerJoin(inboxes, eq(inboxes.id, contactInboxes.inboxId))
    .where(and(eq(inboxes.accountId, accountId), eq(contactInboxes.sourceId, sourceId)))
    .orderBy(asc(contactInboxes.id))
    .limit(1)
    .get();

export const insertContactInbox = (db: Db, values: typeof contactInboxes.$inferInsert) =>
  db.insert(contactInboxes).values(values);

/** The id of a contact inbox, as a subquery (for a batch that may have just inserted it). */
export const contactInboxIdOf = (db: Db, inboxId: number, sourceId: string) =>
  sql`(${db
    .select({ id: contactInboxes.id })
    .from(contactInboxes)
    .where(and(eq(contactInboxes.inboxId, inboxId), eq(contactInboxes.sourceId, sourceId)))})`;

// --- rule lookups -----------------------------------------------------------------------------

/** Chatwoot's `inbox.active_bot?`. */
export const hasActiveBot = async (db: Db, inboxId: number) =>
  (await db
    .select({ id: agentBotInboxes.id })
    .from(agentBotInboxes)
    .where(and(eq(agentBotInboxes.inboxId, inboxId), eq(agentBotInboxes.status, "active")))
    .get()) !== undefined;

/** The user's role in the account and whether they are a member of the inbox. */
export const assigneeStanding = (db: Db, accountId: number, inboxId: number, userId: number) =>
  db
    .select({
      role: accountUsers.role,
      inInbox: sql<number>`EXISTS (SELECT 1 FROM ${inboxMembers} WHERE ${inboxMembers.inboxId} = ${inboxId} AND ${inboxMembers.userId} = ${userId})`,
    })
    .from(accountUsers)
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId)))
    .get();

// --- labels -----------------------------------------------------------------------------------

export async function labelsOf(db: Db, conversationId: number): Promise<string[]> {
  const rows = await db
    .select({ title: conversationLabels.title })
    .from(conversationLabels)
    .where(eq(conversationLabels.conversationId, conversationId))
    .orderBy(asc(conversationLabels.title))
    .all();
  return rows.map((r) => r.title);
}

/** Statements that leave the conversation with exactly `titles` (≤ 100, one batch). */
export function replaceLabels(db: Db, conversationId: number, titles: string[]) {
  const clear = db
    .delete(conversationLabels)
    .where(eq(conversationLabels.conversationId, conversationId));
  const inserts = [];
  // Two parameters per row; D1 binds at most 100 per statement.
  for (let i = 0; i < titles.length; i += 45) {
    inserts.push(
      db
        .insert(conversationLabels)
        .values(titles.slice(i, i + 45).map((title) => ({ conversationId, title })))
        .onConflictDoNothing(),
    );
  }
  return [clear, ...inserts] as const;
}

/** The conversation's latest incoming message: when it arrived and its seq (null when none). */
export const lastIncoming = (db: Db, conversationId: number) =>
  db
    .select({ at: messages.createdAt, seq: messages.seq })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.messageType, 0)))
    .orderBy(desc(messages.seq))
    .limit(1)
    .get();
