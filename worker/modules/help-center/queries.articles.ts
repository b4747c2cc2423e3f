import { and, asc, count, eq, inArray, max, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accountUsers, helpArticles, users } from "../../db/schema";
import { ftsMatch } from "./queries.search";
import { startsWithDash } from "./queries.slugs";

export type NewArticle = typeof helpArticles.$inferInsert;

export type ArticleFilter = {
  status?: number;
  locale?: string;
  categoryId?: number;
  authorId?: number;
  /** Words to find (FTS5, prefix matching); already reduced to plain words. */
  words?: string[];
};

function where(portalId: number, f: ArticleFilter, withStatus: boolean): SQL | undefined {
  return and(
    eq(helpArticles.portalId, portalId),
    withStatus && f.status !== undefined ? eq(helpArticles.status, f.status) : undefined,
    f.locale !== undefined ? eq(helpArticles.locale, f.locale) : undefined,
    f.categoryId !== undefined ? eq(helpArticles.categoryId, f.categoryId) : undefined,
    f.authorId !== undefined ? eq(helpArticles.authorId, f.authorId) : undefined,
    f.words && f.words.length > 0
      ? sql`${helpArticles.id} IN (SELECT rowid FROM help_articles_fts WHERE help_articles_fts MATCH ${ftsMatch(f.words)})`
      : undefined,
  );
}

export const listArticles = (
  db: Db,
  portalId: number,
  f: ArticleFilter,
  page: number,
  per: number,
) =>
  db
    .select()
    .from(helpArticles)
    .where(where(portalId, f, true))
    .orderBy(asc(helpArticles.position), asc(helpArticles.id))
    .limit(per)
    .offset((page - 1) * per)
    .all();

/** Counts for the list's meta: by status and by author, over the filter without its status. */
export const articleStatusCounts = (db: Db, portalId: number, f: ArticleFilter) =>
  db
    .select({ status: helpArticles.status, authorId: helpArticles.authorId, n: count() })
    .from(helpArticles)
    .where(where(portalId, f, false))
    .groupBy(helpArticles.status, helpArticles.authorId)
    .all();

export const findArticle = (db: Db, portalId: number, id: number) =>
  db
    .select()
    .from(helpArticles)
    .where(and(eq(helpArticles.portalId, portalId), eq(helpArticles.id, id)))
    .get();

/**
 * The article, what it points at, what points at it, and its siblings in that group. Each OR
 * term is one indexed lookup (associated_article_id, or the primary key); the portal is checked
 * on the few rows found, so the planner never walks the portal's articles.
 */
export async function associatedArticles(
  db: Db,
  row: { id: number; portalId: number; associatedArticleId: number | null },
) {
  const group = row.associatedArticleId;
  const rows = await db
    .select()
    .from(helpArticles)
    .where(
      or(
        eq(helpArticles.associatedArticleId, row.id),
        group !== null ? eq(helpArticles.id, group) : undefined,
        group !== null ? eq(helpArticles.associatedArticleId, group) : undefined,
      ),
    )
    .orderBy(asc(helpArticles.id))
    .limit(51)
    .all();
  return rows.filter((r) => r.portalId === row.portalId && r.id !== row.id).slice(0, 50);
}

export async function articleSlugsLike(db: Db, portalId: number, base: string) {
  const rows = await db
    .select({ slug: helpArticles.slug })
    .from(helpArticles)
    .where(
      and(
        eq(helpArticles.portalId, portalId),
        or(eq(helpArticles.slug, base), startsWithDash(helpArticles.slug, base)),
      ),
    )
    .all();
  return new Set(rows.map((r) => r.slug));
}

export const articleWithSlug = (db: Db, portalId: number, slug: string, exceptId: number) =>
  db
    .select({ id: helpArticles.id })
    .from(helpArticles)
    .where(
      and(
        eq(helpArticles.portalId, portalId),
        eq(helpArticles.slug, slug),
        ne(helpArticles.id, exceptId),
      ),
    )
    .get();

export async function nextPosition(db: Db, portalId: number) {
  const row = await db
    .select({ top: max(helpArticles.position) })
    .from(helpArticles)
    .where(eq(helpArticles.portalId, portalId))
    .get();
  return (row?.top ?? 0) + 1;
}

export const insertArticle = (db: Db, values: NewArticle) =>
  db.insert(helpArticles).values(values).returning();

export const updateArticle = (db: Db, id: number, values: Partial<NewArticle>) =>
  db.update(helpArticles).set(values).where(eq(helpArticles.id, id)).returning();

export const setPosition = (db: Db, portalId: number, id: number, position: number) =>
  db
    .update(helpArticles)
    .set({ position })
    .where(and(eq(helpArticles.portalId, portalId), eq(helpArticles.id, id)));

export const deleteArticleStatements = (db: Db, id: number) =>
  [
    db
      .update(helpArticles)
      .set({ associatedArticleId: null })
      .where(eq(helpArticles.associatedArticleId, id)),
    db.delete(helpArticles).where(eq(helpArticles.id, id)),
  ] as const;

export const usersByIds = (db: Db, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.select().from(users).where(inArray(users.id, ids)).all();

/** A user of the account (any role): who may author its articles. */
export const accountUser = (db: Db, accountId: number, userId: number) =>
  db
    .select({ userId: accountUsers.userId })
    .from(accountUsers)
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId)))
    .get();

/** Batched view counts: one statement per article, in one D1 batch per flush. */
export const addViews = (db: Db, id: number, n: number) =>
  db
    .update(helpArticles)
    .set({ views: sql`${helpArticles.views} + ${n}` })
    .where(eq(helpArticles.id, id));
