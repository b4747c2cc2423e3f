import { and, asc, count, eq, inArray, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { helpArticles, helpCategories, inboxes, portals } from "../../db/schema";
import { startsWithDash } from "./queries.slugs";

export type NewPortal = typeof portals.$inferInsert;

export const listPortals = (db: Db, accountId: number) =>
  db.select().from(portals).where(eq(portals.accountId, accountId)).orderBy(asc(portals.id)).all();

export const findPortalBySlug = (db: Db, accountId: number, slug: string) =>
  db
    .select()
    .from(portals)
    .where(and(eq(portals.accountId, accountId), eq(portals.slug, slug)))
    .get();

/** Public pages: any account's portal, by its service-wide slug. */
export const findPublicPortal = (db: Db, slug: string) =>
  db.select().from(portals).where(eq(portals.slug, slug)).get();

/**
 * Live portals served under /hc on the service's host (no verified custom domain: a pending
 * claim is still read there), for its robots.txt.
 */
export const livePortalSlugs = (db: Db, limit: number) =>
  db
    .select({ slug: portals.slug })
    .from(portals)
    .where(and(eq(portals.archived, false), isNull(portals.domainVerifiedAt)))
    .orderBy(asc(portals.id))
    .limit(limit)
    .all();

export const findPortalById = (db: Db, id: number) =>
  db.select().from(portals).where(eq(portals.id, id)).get();

/** The portal that holds `domain` verified (at most one: portals_verified_domain_unique). */
export const findPortalByDomain = (db: Db, domain: string) =>
  db
    .select()
    .from(portals)
    .where(and(eq(portals.customDomain, domain), isNotNull(portals.domainVerifiedAt)))
    .get();

/** Portal slugs (of any account) equal to `base` or `base-…`, for picking a free one. */
export async function portalSlugsLike(db: Db, base: string) {
  const rows = await db
    .select({ slug: portals.slug })
    .from(portals)
    .where(or(eq(portals.slug, base), startsWithDash(portals.slug, base)))
    .all();
  return new Set(rows.map((r) => r.slug));
}

export const portalWithSlug = (db: Db, slug: string, exceptId: number) =>
  db
    .select({ id: portals.id })
    .from(portals)
    .where(and(eq(portals.slug, slug), ne(portals.id, exceptId)))
    .get();

/**
 * One batch: whoever held `domain` verified goes back to pending (first, so the unique index
 * holds), then the portal holds it verified, if it still claims it. Both purge cached pages.
 */
export const verifyDomainStatements = (db: Db, portalId: number, domain: string, now: number) =>
  [
    db
      .update(portals)
      .set({
        domainVerifiedAt: null,
        contentVersion: sql`${portals.contentVersion} + 1`,
        updatedAt: now,
      })
      .where(
        and(
          eq(portals.customDomain, domain),
          isNotNull(portals.domainVerifiedAt),
          ne(portals.id, portalId),
        ),
      )
      .returning({ id: portals.id }),
    db
      .update(portals)
      .set({
        domainVerifiedAt: now,
        contentVersion: sql`${portals.contentVersion} + 1`,
        updatedAt: now,
      })
      .where(and(eq(portals.id, portalId), eq(portals.customDomain, domain))),
  ] as const;

export const insertPortal = (db: Db, values: NewPortal) =>
  db.insert(portals).values(values).returning();

export const updatePortal = (db: Db, id: number, values: Partial<NewPortal>) =>
  db
    .update(portals)
    .set({ ...values, contentVersion: sql`${portals.contentVersion} + 1` })
    .where(eq(portals.id, id))
    .returning();

/** In the same batch as any change inside the portal: public pages cached under the old version are gone. */
export const bumpPortal = (db: Db, id: number, now: number) =>
  db
    .update(portals)
    .set({ contentVersion: sql`${portals.contentVersion} + 1`, updatedAt: now })
    .where(eq(portals.id, id));

export const deletePortalStatements = (db: Db, id: number) =>
  [
    db.delete(helpArticles).where(eq(helpArticles.portalId, id)),
    db.delete(helpCategories).where(eq(helpCategories.portalId, id)),
    db.delete(portals).where(eq(portals.id, id)),
  ] as const;

export const findWidgetInbox = (db: Db, accountId: number, inboxId: number) =>
  db
    .select()
    .from(inboxes)
    .where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, inboxId)))
    .get();

export const inboxesById = (db: Db, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.select().from(inboxes).where(inArray(inboxes.id, ids)).all();

/** Per portal: article counts by locale and status, and the caller's own. */
export const articleCounts = (db: Db, portalIds: number[]) =>
  portalIds.length === 0
    ? Promise.resolve([])
    : db
        .select({
          portalId: helpArticles.portalId,
          locale: helpArticles.locale,
          status: helpArticles.status,
          authorId: helpArticles.authorId,
          n: count(),
        })
        .from(helpArticles)
        .where(inArray(helpArticles.portalId, portalIds))
        .groupBy(
          helpArticles.portalId,
          helpArticles.locale,
          helpArticles.status,
          helpArticles.authorId,
        )
        .all();

export const categoryCounts = (db: Db, portalIds: number[]) =>
  portalIds.length === 0
    ? Promise.resolve([])
    : db
        .select({ portalId: helpCategories.portalId, locale: helpCategories.locale, n: count() })
        .from(helpCategories)
        .where(inArray(helpCategories.portalId, portalIds))
        .groupBy(helpCategories.portalId, helpCategories.locale)
        .all();
