import type { PortalRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { fileUrl } from "../files/storage";
import type { PublicResult } from "./public-result";
import { findCategoryBySlug, portalCategories } from "./queries.categories";
import {
  categoryArticles,
  liveLocales,
  localeCategories,
  popularArticles,
  publishedPerCategory,
  sitemapArticles,
} from "./queries.public";
import { feedbackState } from "./render/feedback";
import { color, type Site } from "./render/layout";
import { categoryPage, homePage, sitemap } from "./render/pages";
import { linkedTo } from "./service.categories";
import { article, html, notFound } from "./service.public.article";
import { searchResult } from "./service.search";

/** A path segment as text; null for a malformed escape (`%E0%A4`), which names no page. */
function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function siteFor(
  portal: PortalRow,
  locale: string,
  prefix: string,
  canonicalBase: string,
  origin: string,
  offered: string[],
  chat: string | null = null,
): Site {
  return {
    portal,
    locale,
    prefix,
    canonicalBase,
    logoUrl: portal.logoKey ? fileUrl(origin, portal.logoKey) : null,
    offered,
    origin,
    chat,
  };
}

/** How renderPublic makes a page's Site: the locale, and the locales offered to visitors. */
export type SiteMaker = (locale: string, offered: string[]) => Site;

/**
 * The locales worth offering: the allowed ones with a published article. A portal with none
 * offers its default locale alone (its home says there are no articles yet); `home` is where
 * the bare portal URL and an empty locale's pages lead: the default locale when it is offered.
 */
async function offeredLocales(deps: Deps, portal: PortalRow) {
  const live = await liveLocales(deps.db, portal.id, portal.allowedLocales);
  const offered = live.length > 0 ? live : [portal.defaultLocale];
  const home = offered.includes(portal.defaultLocale)
    ? portal.defaultLocale
    : (offered[0] as string);
  return { offered, home };
}

const redirect = (location: string): PublicResult => ({
  status: 302,
  body: "",
  type: "text/plain; charset=utf-8",
  location,
});

/**
 * One public page of a live portal, from the path after the portal's base (`/hc/{slug}` or
 * the root of its own domain). Only published articles are ever read here.
 */
export async function renderPublic(
  deps: Deps,
  portal: PortalRow,
  makeSite: SiteMaker,
  path: string,
  params: URLSearchParams,
  wantsJson: boolean,
): Promise<PublicResult> {
  const decoded = path.split("/").filter(Boolean).map(safeDecode);
  const parts = decoded.filter((p): p is string => p !== null);
  if (parts.length !== decoded.length) {
    return notFound(makeSite(portal.defaultLocale, [portal.defaultLocale]));
  }
  const [first, second, third] = parts;
  const isLocale = (l: string | undefined): l is string =>
    l !== undefined && portal.allowedLocales.includes(l);
  if (parts.length === 1 && first === "favicon.svg") {
    // The portal's colour as its icon (when it has no logo): no 404 in the browser's console.
    const fill = color(portal.color);
    return {
      status: 200,
      type: "image/svg+xml",
      body: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="16" fill="${fill}"/></svg>`,
    };
  }
  if (parts.length === 1 && first === "robots.txt") {
    const base = makeSite(portal.defaultLocale, []).canonicalBase;
    return {
      status: 200,
      type: "text/plain; charset=utf-8",
      body: `User-agent: *\nAllow: /\nSitemap: ${base}/sitemap.xml\n`,
    };
  }
  const { offered, home: homeLocale } = await offeredLocales(deps, portal);
  const site = (locale: string) => makeSite(locale, offered);
  if (parts.length === 0) {
    return home(deps, site(homeLocale));
  }
  if (parts.length === 1 && first === "sitemap.xml") {
    const s = site(homeLocale);
    const [categories, articles] = await Promise.all([
      portalCategories(deps.db, portal.id),
      sitemapArticles(deps.db, portal.id),
    ]);
    const live = categories.filter((c) => offered.includes(c.locale));
    return {
      status: 200,
      type: "application/xml; charset=utf-8",
      body: sitemap(s, offered, live, articles),
    };
  }
  if (first === "articles" && second !== undefined && parts.length === 2) {
    return article(deps, portal, site, second, feedbackState(params.get("feedback")));
  }
  if (!isLocale(first)) {
    return notFound(site(homeLocale));
  }
  const search = parts.length === 2 && (second === "articles" || second === "articles.json");
  const asJson = search && (wantsJson || second === "articles.json");
  if (!offered.includes(first) && !asJson) {
    // An allowed locale with nothing published: its pages would be empty, in chrome that may
    // not even speak it. Lead to the home locale (a search keeps its words); JSON still answers.
    const to = `/${encodeURIComponent(homeLocale)}`;
    const query = params.get("query") ?? params.get("q");
    return second === "articles" && parts.length === 2
      ? redirect(`${to}/articles${query ? `?query=${encodeURIComponent(query)}` : ""}`)
      : redirect(to);
  }
  if (parts.length === 1) {
    return home(deps, site(first));
  }
  if (parts.length === 3 && second === "categories" && third !== undefined) {
    return category(deps, site(first), third);
  }
  if (search) {
    return searchResult(deps, site(first), params.get("query") ?? params.get("q") ?? "", asJson);
  }
  return notFound(site(first));
}

async function home(deps: Deps, site: Site): Promise<PublicResult> {
  const [categories, counts, popular] = await Promise.all([
    localeCategories(deps.db, site.portal.id, site.locale),
    publishedPerCategory(deps.db, site.portal.id, site.locale),
    popularArticles(deps.db, site.portal.id, site.locale, 6),
  ]);
  const byCategory = new Map(counts.map((c) => [c.categoryId, c.n]));
  const listed = categories
    .filter((c) => c.parentCategoryId === null)
    .map((row) => ({ row, count: byCategory.get(row.id) ?? 0 }));
  return html(homePage(site, listed, popular));
}

async function category(deps: Deps, site: Site, slug: string): Promise<PublicResult> {
  const row = await findCategoryBySlug(deps.db, site.portal.id, site.locale, slug);
  if (!row) {
    return notFound(site);
  }
  const [articles, all] = await Promise.all([
    categoryArticles(deps.db, site.portal.id, site.locale, row.id, 200),
    portalCategories(deps.db, site.portal.id),
  ]);
  const linked = linkedTo(row, all).filter((c) => site.offered.includes(c.locale));
  return html(categoryPage(site, row, articles, linked));
}

export { notFound as publicNotFound };
