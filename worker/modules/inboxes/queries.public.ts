import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inboxes } from "../../db/schema";

/** The public API addresses an inbox by its inbox_identifier (both channel kinds). */
export const findInboxByIdentifier = (db: Db, identifier: string) =>
  db.select().from(inboxes).where(eq(inboxes.inboxIdentifier, identifier)).get();

export const findInboxById = (db: Db, id: number) =>
  db.select().from(inboxes).where(eq(inboxes.id, id)).get();
