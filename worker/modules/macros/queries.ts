import { and, asc, count, eq, inArray, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { attachments, conversations, macros, messages } from "../../db/schema";
import type { Viewer } from "../conversations/policy";
import { visibleInboxIds, visibleTo } from "../conversations/queries";

export type NewMacro = typeof macros.$inferInsert;

/** Chatwoot's Macro.with_visibility: the account's global macros and the user's own, by id. */
export const visibleMacros = (db: Db, accountId: number, userId: number) =>
  db
    .select()
    .from(macros)
    .where(
      and(
        eq(macros.accountId, accountId),
        or(
          eq(macros.visibility, "global"),
          and(eq(macros.visibility, "personal"), eq(macros.createdById, userId)),
        ),
      ),
    )
    .orderBy(asc(macros.id))
    .all();

export const findMacro = (db: Db, accountId: number, id: number) =>
  db
    .select()
    .from(macros)
    .where(and(eq(macros.accountId, accountId), eq(macros.id, id)))
    .get();

export const countMacros = async (db: Db, accountId: number) =>
  (await db.select({ n: count() }).from(macros).where(eq(macros.accountId, accountId)).get())?.n ??
  0;

export const insertMacro = (db: Db, values: NewMacro) =>
  db.insert(macros).values(values).returning();

export const updateMacroRow = (db: Db, accountId: number, id: number, values: Partial<NewMacro>) =>
  db
    .update(macros)
    .set(values)
    .where(and(eq(macros.accountId, accountId), eq(macros.id, id)))
    .returning();

export const deleteMacroRow = (db: Db, accountId: number, id: number) =>
  db.delete(macros).where(and(eq(macros.accountId, accountId), eq(macros.id, id)));

/**
 * Which of `ids` are files of messages in conversations `viewer` may see (the ids a macro's
 * send_attachment may name): one query, ids bounded by the actions' own bounds.
 */
export async function visibleAttachmentIds(
  db: Db,
  accountId: number,
  viewer: Viewer,
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) {
    return new Set();
  }
  const inboxIds = visibleInboxIds(db, viewer);
  const rows = await db
    .select({ id: attachments.id })
    .from(attachments)
    .innerJoin(messages, eq(messages.id, attachments.messageId))
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(
      and(
        eq(attachments.accountId, accountId),
        inArray(attachments.id, ids),
        inboxIds ? inArray(conversations.inboxId, inboxIds) : undefined,
      ),
    )
    .all();
  return new Set(rows.map((r) => r.id));
}

/**
 * The conversations among `displayIds` that `viewer` may see, by display id: the ids an execute
 * call names (at most 25) in one query instead of two per conversation.
 */
export async function visibleConversationIds(
  db: Db,
  accountId: number,
  viewer: Viewer,
  displayIds: number[],
): Promise<Map<number, number>> {
  if (displayIds.length === 0) {
    return new Map();
  }
  const rows = await db
    .select({ id: conversations.id, displayId: conversations.displayId })
    .from(conversations)
    .where(
      and(
        eq(conversations.accountId, accountId),
        inArray(conversations.displayId, displayIds),
        visibleTo(db, viewer),
      ),
    )
    .all();
  return new Map(rows.map((r) => [r.displayId, r.id]));
}
