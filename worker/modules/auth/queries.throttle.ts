import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { signInFailures } from "../../db/schema";

/** How an email's recent failures spread: over how many addresses, and how many from `ip`. */
export async function failureSpread(db: Db, email: string, ip: string, since: number) {
  const row = await db
    .select({
      addresses: sql<number>`count(DISTINCT ${signInFailures.ip})`,
      here: sql<number>`coalesce(sum(${signInFailures.ip} = ${ip}), 0)`,
      oldestHere: sql<
        number | null
      >`min(CASE WHEN ${signInFailures.ip} = ${ip} THEN ${signInFailures.at} END)`,
    })
    .from(signInFailures)
    .where(and(eq(signInFailures.email, email), gt(signInFailures.at, since)))
    .get();
  return { addresses: row?.addresses ?? 0, here: row?.here ?? 0, oldestHere: row?.oldestHere };
}

export const insertFailure = (db: Db, email: string, ip: string, at: number) =>
  db.insert(signInFailures).values({ email, ip, at });

/** A right password from an address forgives that address's failures for the email. */
export const clearFailures = (db: Db, email: string, ip: string) =>
  db.delete(signInFailures).where(and(eq(signInFailures.email, email), eq(signInFailures.ip, ip)));

export async function pruneFailures(db: Db, before: number): Promise<number> {
  const gone = await db
    .delete(signInFailures)
    .where(lt(signInFailures.at, before))
    .returning({ id: signInFailures.id });
  return gone.length;
}
