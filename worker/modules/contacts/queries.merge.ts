import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import {
  contactInboxes,
  contactLabels,
  contactNotes,
  contacts,
  conversations,
  messages,
} from "../../db/schema";
import type { NewContact } from "./queries";

/**
 * Everything of the mergee's that moves to the base contact, in batch order: conversations,
 * contact inboxes, labels (the base keeps its own), notes, the contact's messages as sender;
 * then the mergee goes (its cascades find nothing left) and the base takes the merged
 * attributes last, when the mergee's unique email or identifier is free.
 */
export function mergeStatements(
  db: Db,
  accountId: number,
  baseId: number,
  mergeeId: number,
  values: Partial<NewContact>,
): BatchItem<"sqlite">[] {
  return [
    db
      .update(conversations)
      .set({ contactId: baseId })
      .where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, mergeeId))),
    db
      .update(contactInboxes)
      .set({ contactId: baseId })
      .where(eq(contactInboxes.contactId, mergeeId)),
    db
      .insert(contactLabels)
      .select(
        db
          .select({
            contactId: sql<number>`${baseId}`.as("contact_id"),
            title: contactLabels.title,
          })
          .from(contactLabels)
          .where(eq(contactLabels.contactId, mergeeId)),
      )
      .onConflictDoNothing(),
    db.delete(contactLabels).where(eq(contactLabels.contactId, mergeeId)),
    db
      .update(contactNotes)
      .set({ contactId: baseId })
      .where(and(eq(contactNotes.accountId, accountId), eq(contactNotes.contactId, mergeeId))),
    db
      .update(messages)
      .set({ senderId: baseId })
      .where(
        and(
          eq(messages.accountId, accountId),
          eq(messages.senderType, "Contact"),
          eq(messages.senderId, mergeeId),
        ),
      ),
    db.delete(contacts).where(and(eq(contacts.accountId, accountId), eq(contacts.id, mergeeId))),
    db
      .update(contacts)
      .set(values)
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, baseId)))
      .returning(),
  ];
}
