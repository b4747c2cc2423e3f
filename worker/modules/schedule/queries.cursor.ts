import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { tickCursors } from "../../db/schema";

/** Where the tick's read `name` stopped last time (0: from the start). */
export const readCursor = async (db: Db, name: string) =>
  (await db.select().from(tickCursors).where(eq(tickCursors.name, name)).get())?.after ?? 0;

/** Records where the tick's read `name` stopped. */
export const saveCursor = (db: Db, name: string, after: number) =>
  db
    .insert(tickCursors)
    .values({ name, after })
    .onConflictDoUpdate({ target: tickCursors.name, set: { after: sql`excluded.after` } });
