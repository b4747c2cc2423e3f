import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./_common";
import { accounts } from "./accounts";
import { inboxes } from "./inboxes";
import { users } from "./users";

/** Chatwoot's article status enum, stored as its integer. */
export const ARTICLE_STATUSES = ["draft", "published", "archived"] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

export type ArticleMeta = { title?: string; description?: string; tags?: string[] };

export const portals = sqliteTable(
  "portals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // Unique across the service: /hc/{slug} has no account in it.
    slug: text("slug").notNull(),
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    color: text("color"),
    // A claim until verified (docs/help-center.md): pending claims of one domain may coexist in
    // several accounts, only a verified one is served, and only one portal holds it verified.
    customDomain: text("custom_domain"),
    // What the claimant publishes as TXT at _parley-challenge.<domain>; new for each new domain.
    domainToken: text("domain_token"),
    // When the TXT record was last seen for this claim; null while pending.
    domainVerifiedAt: integer("domain_verified_at"),
    headerText: text("header_text"),
    homepageLink: text("homepage_link"),
    pageTitle: text("page_title"),
    allowedLocales: text("allowed_locales", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(["en"]),
    defaultLocale: text("default_locale").notNull().default("en"),
    inboxId: integer("inbox_id").references(() => inboxes.id, { onDelete: "set null" }),
    logoKey: text("logo_key"),
    logoFilename: text("logo_filename"),
    logoContentType: text("logo_content_type"),
    // Bumped by every change to the portal or anything in it: public pages are cached under
    // it, so a change is a purge everywhere at once.
    contentVersion: integer("content_version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("portals_slug_unique").on(t.slug),
    uniqueIndex("portals_verified_domain_unique")
      .on(t.customDomain)
      .where(sql`${t.domainVerifiedAt} IS NOT NULL`),
    index("portals_account_idx").on(t.accountId),
  ],
);

export const helpCategories = sqliteTable(
  "help_categories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    portalId: integer("portal_id")
      .notNull()
      .references(() => portals.id, { onDelete: "cascade" }),
    locale: text("locale").notNull(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description"),
    icon: text("icon"),
    position: integer("position").notNull().default(0),
    parentCategoryId: integer("parent_category_id"),
    associatedCategoryId: integer("associated_category_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("help_categories_slug_unique").on(t.portalId, t.locale, t.slug)],
);

export const helpArticles = sqliteTable(
  "help_articles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    portalId: integer("portal_id")
      .notNull()
      .references(() => portals.id, { onDelete: "cascade" }),
    categoryId: integer("category_id").references(() => helpCategories.id, {
      onDelete: "set null",
    }),
    locale: text("locale").notNull(),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    slug: text("slug").notNull(),
    content: text("content").notNull().default(""),
    description: text("description"),
    // 0 draft, 1 published, 2 archived (ARTICLE_STATUSES).
    status: integer("status").notNull().default(0),
    position: integer("position").notNull().default(0),
    views: integer("views").notNull().default(0),
    meta: text("meta", { mode: "json" }).$type<ArticleMeta>().notNull().default({}),
    associatedArticleId: integer("associated_article_id"),
    folderId: integer("folder_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("help_articles_slug_unique").on(t.portalId, t.slug),
    // Public lists: a portal's published articles of one locale, by category or by views.
    index("help_articles_public_idx").on(t.portalId, t.status, t.locale, t.categoryId, t.position),
    index("help_articles_popular_idx").on(t.portalId, t.status, t.locale, t.views),
    index("help_articles_category_idx").on(t.categoryId),
    index("help_articles_associated_idx").on(t.associatedArticleId),
  ],
);

/**
 * "Was this helpful?" on a public article: one row per visitor and article (the visitor is the
 * SHA-256 of a random cookie, never an address), so voting again changes the vote rather than
 * adding one. The comment is the optional short text sent with it.
 */
export const helpArticleFeedback = sqliteTable(
  "help_article_feedback",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    articleId: integer("article_id")
      .notNull()
      .references(() => helpArticles.id, { onDelete: "cascade" }),
    visitor: text("visitor").notNull(),
    helpful: integer("helpful", { mode: "boolean" }).notNull(),
    comment: text("comment"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("help_article_feedback_visitor_unique").on(t.articleId, t.visitor),
    // Counts per article and vote, read from the index alone.
    index("help_article_feedback_counts_idx").on(t.articleId, t.helpful),
  ],
);

export type PortalRow = typeof portals.$inferSelect;
export type HelpArticleFeedbackRow = typeof helpArticleFeedback.$inferSelect;
export type HelpCategoryRow = typeof helpCategories.$inferSelect;
export type HelpArticleRow = typeof helpArticles.$inferSelect;
