import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";

/** The cheapest round trip to D1: proves the database answers. */
export const pingDatabase = (db: Db) => db.get<{ ok: number }>(sql`select 1 as ok`);
