import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { portals } from "../../db/schema";

/** The demo account's live help centers, for the local front door's links. */
export const demoPortals = (db: Db, accountId: number) =>
  db
    .select({ name: portals.name, slug: portals.slug })
    .from(portals)
    .where(and(eq(portals.accountId, accountId), eq(portals.archived, false)))
    .orderBy(asc(portals.id))
    .limit(20)
    .all();
