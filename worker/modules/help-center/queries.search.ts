import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";

/** Markers FTS5 puts around matches in snippets; the page escapes the text, then swaps them for <mark>. */
export const MARK_OPEN = "\uE000";
export const MARK_CLOSE = "\uE001";

/**
 * A search box's text as plain words: FTS5 syntax (quotes, NEAR, column filters, `*`, `^`)
 * never reaches MATCH, so hostile input is just words that match nothing.
 */
export function searchWords(query: string): string[] {
  const words = query.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.slice(0, 8).map((w) => w.slice(0, 64));
}

/** Every word must match, each as a prefix (`pass` finds "password"). */
export const ftsMatch = (words: string[]) => words.map((w) => `"${w}"*`).join(" ");

export type SearchHit = {
  id: number;
  title: string;
  slug: string;
  description: string | null;
  categoryId: number | null;
  updatedAt: number;
  snippet: string;
};

/**
 * Published articles of one portal + locale matching every word, best first: bm25 with the
 * title weighted 10, tags 6, description 3 and the body 1.
 */
export async function searchPublished(
  db: Db,
  portalId: number,
  locale: string,
  words: string[],
  limit: number,
): Promise<SearchHit[]> {
  if (words.length === 0) {
    return [];
  }
  const rows = await db.all<{
    id: number;
    title: string;
    slug: string;
    description: string | null;
    category_id: number | null;
    updated_at: number;
    snippet: string | null;
  }>(sql`
    SELECT a.id, a.title, a.slug, a.description, a.category_id, a.updated_at,
      snippet(help_articles_fts, -1, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 16) AS snippet
    FROM help_articles_fts
    JOIN help_articles a ON a.id = help_articles_fts.rowid
    WHERE help_articles_fts MATCH ${ftsMatch(words)}
      AND a.portal_id = ${portalId} AND a.locale = ${locale} AND a.status = 1
    ORDER BY bm25(help_articles_fts, 10.0, 3.0, 6.0, 1.0), a.id
    LIMIT ${limit}`);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    slug: r.slug,
    description: r.description,
    categoryId: r.category_id,
    updatedAt: r.updated_at,
    snippet: r.snippet ?? "",
  }));
}
