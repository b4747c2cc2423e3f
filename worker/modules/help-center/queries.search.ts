import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";

/** Markers FTS5 puts around matches in snippets; the page escapes the text, then swaps them for <mark>. */
export const MARK_OPEN = "\uE000";
export const MARK_CLOSE = "\uE001";

/**
 * How many of a portal's matches a search ranks at most. bm25 scores (and sorts) every row it
 * is given, so ranking all of a word found in 100,000 articles costs ~100 ms; ranking the newest
 * SEARCH_CAP matches costs what ranking a rare word does. Below the cap the ranking is exact.
 */
export const SEARCH_CAP = 250;

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

/** Words whose indexed form is known here: unicode61 only lower-cases ASCII letters. */
const ASCII_WORD = /^[A-Za-z0-9]+$/;

/**
 * One word of the MATCH string, as SQL. FTS5 answers a prefix query by first merging the
 * doclists of every term it covers (~3 ms per 100,000 articles, for the cap's bound, the rows and
 * bm25's IDF each). When no indexed term extends the word, `"word"` finds the same articles without
 * that merge, so the term list decides. Other words keep the prefix: the question could only
 * be asked in the tokenizer's own folding.
 */
function matchWord(word: string): SQL {
  const prefix = `"${word}"*`;
  if (!ASCII_WORD.test(word)) {
    return sql`${prefix}`;
  }
  const term = word.toLowerCase();
  const after = term.slice(0, -1) + String.fromCharCode(term.charCodeAt(term.length - 1) + 1);
  return sql`(CASE WHEN EXISTS (SELECT 1 FROM help_articles_fts_terms
    WHERE term > ${term} AND term < ${after}) THEN ${prefix} ELSE ${`"${word}"`} END)`;
}

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
 * The search statement (exported for its query-plan test). The scalar subquery finds the
 * cap-th newest of the portal's matches without scoring anything (FTS5 walks a doclist in rowid
 * order); FTS5 then reads only the matches from that rowid up, so bm25 scores at most `cap`
 * rows. With fewer matches the bound is 0: every match is ranked. CROSS JOIN keeps the index
 * the outer loop: led by the portal's articles, SQLite would run one MATCH per article.
 */
export function searchQuery(
  portalId: number,
  locale: string,
  words: string[],
  limit: number,
  cap = SEARCH_CAP,
): SQL {
  return sql`
    WITH m(q) AS (SELECT ${sql.join(words.map(matchWord), sql` || ' ' || `)})
    SELECT a.id, a.title, a.slug, a.description, a.category_id, a.updated_at,
      snippet(help_articles_fts, -1, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 16) AS snippet
    FROM help_articles_fts
    CROSS JOIN help_articles a ON a.id = help_articles_fts.rowid
    WHERE help_articles_fts MATCH (SELECT q FROM m)
      AND a.portal_id = ${portalId} AND a.locale = ${locale} AND a.status = 1
      AND help_articles_fts.rowid >= coalesce((
        SELECT f.rowid FROM help_articles_fts f
        CROSS JOIN help_articles c ON c.id = f.rowid
        WHERE f.help_articles_fts MATCH (SELECT q FROM m)
          AND c.portal_id = ${portalId} AND c.locale = ${locale} AND c.status = 1
        ORDER BY f.rowid DESC LIMIT 1 OFFSET ${cap - 1}), 0)
    ORDER BY bm25(help_articles_fts, 10.0, 3.0, 6.0, 1.0), a.id
    LIMIT ${limit}`;
}

/**
 * Published articles of one portal + locale matching every word, best first: bm25 with the
 * title weighted 10, tags 6, description 3 and the body 1, over the newest `cap` matches.
 */
export async function searchPublished(
  db: Db,
  portalId: number,
  locale: string,
  words: string[],
  limit: number,
  cap = SEARCH_CAP,
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
  }>(searchQuery(portalId, locale, words, limit, cap));
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
