import { env } from "cloudflare:test";
import { type SQL, sql } from "drizzle-orm";
import { createDb } from "../../worker/db/client";

/**
 * SQLite's plan for a statement exactly as the service sends it (a drizzle query, or raw SQL),
 * one step per line: the plan tests pin that a read stays an index search as data grows.
 */
export async function queryPlan(
  query: SQL | { toSQL(): { sql: string; params: unknown[] } },
): Promise<string[]> {
  if ("toSQL" in query) {
    const { sql: text, params } = query.toSQL();
    const result = await env.DB.prepare(`EXPLAIN QUERY PLAN ${text}`)
      .bind(...params)
      .all<{ detail: string }>();
    return result.results.map((r) => r.detail);
  }
  const rows = await createDb(env.DB).all<{ detail: string }>(
    sql`EXPLAIN QUERY PLAN `.append(query),
  );
  return rows.map((r) => r.detail);
}
