import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { helpArticles, helpCategories } from "../../db/schema";

const PUBLISHED = 1;

/** What lists show of an article: never its body. */
const summary = {
  id: helpArticles.id,
  title: helpArticles.title,
  slug: helpArticles.slug,
  description: helpArticles.description,
  locale: helpArticles.locale,
  categoryId: helpArticles.categoryId,
  updatedAt: helpArticles.updatedAt,
};

export type ArticleSummary = {
  id: number;
  title: string;
  slug: string;
  description: string | null;
  locale: string;
  categoryId: number | null;
  updatedAt: number;
};

const published = (portalId: number, locale: string) =>
  and(
    eq(helpArticles.portalId, portalId),
    eq(helpArticles.status, PUBLISHED),
    eq(helpArticles.locale, locale),
  );

export const localeCategories = (db: Db, portalId: number, locale: string) =>
  db
    .select()
    .from(helpCategories)
    .where(and(eq(helpCategories.portalId, portalId), eq(helpCategories.locale, locale)))
    .orderBy(asc(helpCategories.position), asc(helpCategories.id))
    .all();

/** Published articles per category of one locale (uses help_articles_public_idx). */
export const publishedPerCategory = (db: Db, portalId: number, locale: string) =>
  db
    .select({ categoryId: helpArticles.categoryId, n: count() })
    .from(helpArticles)
    .where(published(portalId, locale))
    .groupBy(helpArticles.categoryId)
    .all();

export const popularArticles = (db: Db, portalId: number, locale: string, limit: number) =>
  db
    .select(summary)
    .from(helpArticles)
    .where(published(portalId, locale))
    .orderBy(desc(helpArticles.views), asc(helpArticles.id))
    .limit(limit)
    .all();

export const categoryArticles = (
  db: Db,
  portalId: number,
  locale: string,
  categoryId: number,
  limit: number,
) =>
  db
    .select(summary)
    .from(helpArticles)
    .where(and(published(portalId, locale), eq(helpArticles.categoryId, categoryId)))
    .orderBy(asc(helpArticles.position), asc(helpArticles.id))
    .limit(limit)
    .all();

export const publishedArticle = (db: Db, portalId: number, slug: string) =>
  db
    .select()
    .from(helpArticles)
    .where(
      and(
        eq(helpArticles.portalId, portalId),
        eq(helpArticles.slug, slug),
        eq(helpArticles.status, PUBLISHED),
      ),
    )
    .get();

export const relatedArticles = (
  db: Db,
  portalId: number,
  locale: string,
  categoryId: number,
  exceptId: number,
) =>
  db
    .select(summary)
    .from(helpArticles)
    .where(
      and(
        published(portalId, locale),
        eq(helpArticles.categoryId, categoryId),
        ne(helpArticles.id, exceptId),
      ),
    )
    .orderBy(desc(helpArticles.views), asc(helpArticles.id))
    .limit(5)
    .all();

export const categoriesByIds = (db: Db, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.select().from(helpCategories).where(inArray(helpCategories.id, ids)).all();

/** Every published article of a portal, for the sitemap (capped at the format's 50,000 URLs). */
export const sitemapArticles = (db: Db, portalId: number) =>
  db
    .select({ slug: helpArticles.slug, updatedAt: helpArticles.updatedAt })
    .from(helpArticles)
    .where(and(eq(helpArticles.portalId, portalId), eq(helpArticles.status, PUBLISHED)))
    .orderBy(asc(helpArticles.id))
    .limit(50_000)
    .all();

/**
 * Which of `locales` have at least one published article, in the order given: one probe of
 * help_articles_public_idx per locale (a portal offers a handful), never a scan of its articles.
 */
export async function liveLocales(db: Db, portalId: number, locales: string[]) {
  if (locales.length === 0) {
    return [];
  }
  const rows = await db.all<{ locale: string }>(
    sql`SELECT l.value AS locale FROM json_each(${JSON.stringify(locales)}) l WHERE EXISTS (SELECT 1 FROM help_articles a WHERE a.portal_id = ${portalId} AND a.status = ${PUBLISHED} AND a.locale = l.value) ORDER BY l.key`,
  );
  return rows.map((r) => r.locale);
}
