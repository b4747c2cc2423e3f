import { and, asc, count, eq, ne, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { helpArticles, helpCategories } from "../../db/schema";
import { startsWithDash } from "./queries.slugs";

export type NewCategory = typeof helpCategories.$inferInsert;

/** Every category of a portal (all locales): lists resolve parents and links from it. */
export const portalCategories = (db: Db, portalId: number) =>
  db
    .select()
    .from(helpCategories)
    .where(eq(helpCategories.portalId, portalId))
    .orderBy(asc(helpCategories.position), asc(helpCategories.id))
    .all();

export const findCategory = (db: Db, portalId: number, id: number) =>
  db
    .select()
    .from(helpCategories)
    .where(and(eq(helpCategories.portalId, portalId), eq(helpCategories.id, id)))
    .get();

/** A slug is unique per portal and locale (the index these lookups use). */
const slugIs = (portalId: number, locale: string, slug: string) =>
  and(
    eq(helpCategories.portalId, portalId),
    eq(helpCategories.locale, locale),
    eq(helpCategories.slug, slug),
  );

export const findCategoryBySlug = (db: Db, portalId: number, locale: string, slug: string) =>
  db
    .select()
    .from(helpCategories)
    .where(slugIs(portalId, locale, slug))
    .get();

/** Articles per category of a portal (any status). */
export const categoryArticleCounts = (db: Db, portalId: number) =>
  db
    .select({ categoryId: helpArticles.categoryId, n: count() })
    .from(helpArticles)
    .where(eq(helpArticles.portalId, portalId))
    .groupBy(helpArticles.categoryId)
    .all();

export async function categorySlugsLike(db: Db, portalId: number, locale: string, base: string) {
  const rows = await db
    .select({ slug: helpCategories.slug })
    .from(helpCategories)
    .where(
      and(
        eq(helpCategories.portalId, portalId),
        eq(helpCategories.locale, locale),
        or(eq(helpCategories.slug, base), startsWithDash(helpCategories.slug, base)),
      ),
    )
    .all();
  return new Set(rows.map((r) => r.slug));
}

export const categoryWithSlug = (
  db: Db,
  portalId: number,
  locale: string,
  slug: string,
  exceptId: number,
) =>
  db
    .select({ id: helpCategories.id })
    .from(helpCategories)
    .where(and(slugIs(portalId, locale, slug), ne(helpCategories.id, exceptId)))
    .get();

export const insertCategory = (db: Db, values: NewCategory) =>
  db.insert(helpCategories).values(values).returning();

export const updateCategory = (db: Db, id: number, values: Partial<NewCategory>) =>
  db.update(helpCategories).set(values).where(eq(helpCategories.id, id)).returning();

/** Its articles become uncategorised; children and links lose the reference. */
export const deleteCategoryStatements = (db: Db, id: number) =>
  [
    db.update(helpArticles).set({ categoryId: null }).where(eq(helpArticles.categoryId, id)),
    db
      .update(helpCategories)
      .set({ parentCategoryId: null })
      .where(eq(helpCategories.parentCategoryId, id)),
    db
      .update(helpCategories)
      .set({ associatedCategoryId: null })
      .where(eq(helpCategories.associatedCategoryId, id)),
    db.delete(helpCategories).where(eq(helpCategories.id, id)),
  ] as const;
