import type {
  ArticleMeta,
  HelpArticleRow,
  HelpCategoryRow,
  InboxRow,
  PortalRow,
  UserRow,
} from "../../db/schema";
import { ARTICLE_STATUSES } from "../../db/schema/help-center";
import { fileUrl } from "../files/storage";
import { widgetScript } from "../inboxes/presenter";
import type { ArticleJson } from "./schema.articles";
import type { CategoryJson } from "./schema.categories";
import type { PortalJson } from "./schema.portals";
import { challengeName } from "./service.domains";

/** What a portal's record counts, gathered by the service in two grouped reads. */
export type PortalStats = {
  locales: Map<string, { articles: number; categories: number }>;
  byStatus: [number, number, number];
  mine: number;
  categories: number;
};

export const emptyStats = (): PortalStats => ({
  locales: new Map(),
  byStatus: [0, 0, 0],
  mine: 0,
  categories: 0,
});

/** Where visitors read a portal: its own domain once verified (a pending one is not served). */
export const portalBaseUrl = (portal: PortalRow, origin: string) =>
  portal.customDomain && portal.domainVerifiedAt !== null
    ? `https://${portal.customDomain}`
    : `${origin}/hc/${encodeURIComponent(portal.slug)}`;

/** An article's public path under its portal's base (pages, JSON and the API's public_url). */
export const articlePath = (slug: string) => `/articles/${encodeURIComponent(slug)}`;

export function presentPortal(
  row: PortalRow,
  ctx: { stats: PortalStats; inbox: InboxRow | null; origin: string },
): PortalJson {
  const { stats, inbox, origin } = ctx;
  const widget = inbox?.channelType === "Channel::WebWidget";
  return {
    id: row.id,
    account_id: row.accountId,
    name: row.name,
    slug: row.slug,
    archived: row.archived,
    color: row.color,
    custom_domain: row.customDomain,
    custom_domain_verification:
      row.customDomain && row.domainToken
        ? {
            status: row.domainVerifiedAt === null ? "pending" : "verified",
            record_type: "TXT",
            record_name: challengeName(row.customDomain),
            record_value: row.domainToken,
            verified_at: row.domainVerifiedAt,
          }
        : null,
    header_text: row.headerText,
    homepage_link: row.homepageLink,
    page_title: row.pageTitle,
    config: {
      allowed_locales: row.allowedLocales.map((code) => ({
        code,
        articles_count: stats.locales.get(code)?.articles ?? 0,
        categories_count: stats.locales.get(code)?.categories ?? 0,
      })),
      default_locale: row.defaultLocale,
    },
    inbox: inbox
      ? {
          id: inbox.id,
          channel_id: inbox.id,
          name: inbox.name,
          website_url: inbox.websiteUrl,
          channel_type: inbox.channelType,
          avatar_url: inbox.avatarUrl ?? "",
          widget_color: inbox.widgetColor,
          website_token: widget ? inbox.inboxIdentifier : null,
          web_widget_script: widget ? widgetScript(origin, inbox) : null,
          welcome_title: inbox.welcomeTitle,
          welcome_tagline: inbox.welcomeTagline,
          greeting_message: inbox.greetingMessage,
          timezone: inbox.timezone,
          business_name: inbox.businessName,
          enable_auto_assignment: inbox.enableAutoAssignment,
          greeting_enabled: inbox.greetingEnabled,
          working_hours_enabled: inbox.workingHoursEnabled,
          enable_email_collect: inbox.enableEmailCollect,
          csat_survey_enabled: inbox.csatSurveyEnabled,
          hmac_mandatory: inbox.hmacMandatory,
        }
      : null,
    logo:
      row.logoKey !== null
        ? {
            // Parley stores the logo in the portal row: the portal id stands for the file ids.
            id: row.id,
            portal_id: row.id,
            account_id: row.accountId,
            blob_id: row.id,
            file_type: row.logoContentType ?? "application/octet-stream",
            file_url: fileUrl(origin, row.logoKey),
            filename: row.logoFilename ?? "logo",
          }
        : null,
    meta: {
      all_articles_count: stats.byStatus[0] + stats.byStatus[1] + stats.byStatus[2],
      draft_articles_count: stats.byStatus[0],
      published_count: stats.byStatus[1],
      archived_articles_count: stats.byStatus[2],
      mine_articles_count: stats.mine,
      categories_count: stats.categories,
      default_locale: row.defaultLocale,
    },
    public_url: portalBaseUrl(row, origin),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

const categoryRef = (row: HelpCategoryRow) => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  locale: row.locale,
});

export function presentCategory(
  row: HelpCategoryRow,
  ctx: { parent: HelpCategoryRow | null; linked: HelpCategoryRow[]; articles: number },
): CategoryJson {
  return {
    id: row.id,
    account_id: row.accountId,
    portal_id: row.portalId,
    name: row.name,
    slug: row.slug,
    locale: row.locale,
    description: row.description,
    icon: row.icon,
    position: row.position,
    parent_category_id: row.parentCategoryId,
    associated_category_id: row.associatedCategoryId,
    parent_category: ctx.parent ? categoryRef(ctx.parent) : null,
    linked_categories: ctx.linked.map(categoryRef),
    meta: { articles_count: ctx.articles },
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export const statusLabel = (status: number) => ARTICLE_STATUSES[status] ?? "draft";

/** Stored meta is the service's own JSON; anything off-shape is dropped rather than answered. */
function cleanMeta(meta: ArticleMeta): ArticleJson["meta"] {
  const out: ArticleJson["meta"] = {};
  if (typeof meta.title === "string") {
    out.title = meta.title;
  }
  if (typeof meta.description === "string") {
    out.description = meta.description;
  }
  if (Array.isArray(meta.tags)) {
    out.tags = meta.tags.filter((t) => typeof t === "string");
  }
  return out;
}

export function presentArticle(
  row: HelpArticleRow,
  ctx: {
    category: HelpCategoryRow | null;
    author: UserRow | null;
    associated: HelpArticleRow[];
    publicUrl: string | null;
    feedback: ArticleJson["feedback"] | undefined;
  },
): ArticleJson {
  const author = ctx.author;
  return {
    id: row.id,
    account_id: row.accountId,
    portal_id: row.portalId,
    category_id: row.categoryId,
    author_id: row.authorId,
    folder_id: row.folderId,
    associated_article_id: row.associatedArticleId,
    title: row.title,
    slug: row.slug,
    content: row.content,
    description: row.description,
    locale: row.locale,
    status: statusLabel(row.status),
    position: row.position,
    views: row.views,
    feedback: ctx.feedback ?? { helpful_count: 0, not_helpful_count: 0 },
    meta: cleanMeta(row.meta),
    category: ctx.category ? categoryRef(ctx.category) : null,
    author: author
      ? {
          id: author.id,
          name: author.name,
          available_name: author.displayName || author.name,
          thumbnail: author.avatarUrl ?? "",
        }
      : null,
    associated_articles: ctx.associated.map((a) => ({
      id: a.id,
      title: a.title,
      slug: a.slug,
      locale: a.locale,
      status: statusLabel(a.status),
    })),
    public_url: ctx.publicUrl,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
