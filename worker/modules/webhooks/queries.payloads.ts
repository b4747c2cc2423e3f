import { desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { contactInboxes, conversations } from "../../db/schema";

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
