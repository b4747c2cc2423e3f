import type { HelpArticleRow, HelpCategoryRow } from "../../../db/schema";
import { articlePath } from "../presenter";
import type { ArticleSummary } from "../queries.public";
import type { SearchHit } from "../queries.search";
import { MARK_CLOSE, MARK_OPEN } from "../queries.search";
import { esc } from "./escape";
import { type FeedbackState, feedbackSection } from "./feedback";
import { page, type Site } from "./layout";
import type { Heading } from "./markdown";
import { stringsFor } from "./strings";

const enc = encodeURIComponent;
const categoryPath = (locale: string, slug: string) => `/${enc(locale)}/categories/${enc(slug)}`;
const date = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);

function articleList(site: Site, articles: ArticleSummary[]): string {
  if (articles.length === 0) {
    return `<p class="mu">${esc(stringsFor(site.locale).noArticles)}</p>`;
  }
  return `<ul class="list">${articles
    .map(
      (a) =>
        `<li><a href="${esc(site.prefix + articlePath(a.slug))}">${esc(a.title)}</a>${a.description ? `<br><span class="mu">${esc(a.description)}</span>` : ""}</li>`,
    )
    .join("")}</ul>`;
}

export function homePage(
  site: Site,
  categories: { row: HelpCategoryRow; count: number }[],
  popular: ArticleSummary[],
): string {
  const t = stringsFor(site.locale);
  const cards = categories
    .map(
      ({ row, count }) =>
        `<li class="card"><h3>${row.icon ? `${esc(row.icon)} ` : ""}<a href="${esc(site.prefix + categoryPath(row.locale, row.slug))}">${esc(row.name)}</a></h3>${row.description ? `<p>${esc(row.description)}</p>` : ""}<p class="n">${esc(t.articles(count))}</p></li>`,
    )
    .join("");
  const name = site.portal.pageTitle || site.portal.name;
  return page(site, {
    title: name,
    description: site.portal.headerText,
    path: `/${enc(site.locale)}`,
    alternates: site.offered.map((l) => ({ locale: l, path: `/${enc(l)}` })),
    hero: true,
    body: `${cards ? `<h2>${esc(t.categories)}</h2><ul class="grid">${cards}</ul>` : ""}<h2>${esc(t.popular)}</h2>${articleList(site, popular)}`,
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "WebSite",
      name,
      url: `${site.canonicalBase}/${site.locale}`,
    },
  });
}

const crumbs = (site: Site, items: { href?: string; label: string }[]) =>
  `<nav class="crumbs" aria-label="Breadcrumb"><a href="${esc(`${site.prefix}/${enc(site.locale)}`)}">${esc(stringsFor(site.locale).home)}</a>${items
    .map(
      (i) =>
        ` › ${i.href ? `<a href="${esc(site.prefix + i.href)}">${esc(i.label)}</a>` : `<span aria-current="page">${esc(i.label)}</span>`}`,
    )
    .join("")}</nav>`;

export function categoryPage(
  site: Site,
  category: HelpCategoryRow,
  articles: ArticleSummary[],
  linked: HelpCategoryRow[],
): string {
  return page(site, {
    title: category.name,
    description: category.description,
    path: categoryPath(category.locale, category.slug),
    alternates: [category, ...linked].map((c) => ({
      locale: c.locale,
      path: categoryPath(c.locale, c.slug),
    })),
    localePaths: new Map(linked.map((c) => [c.locale, categoryPath(c.locale, c.slug)])),
    body: `${crumbs(site, [{ label: category.name }])}<h1>${category.icon ? `${esc(category.icon)} ` : ""}${esc(category.name)}</h1>${category.description ? `<p class="mu">${esc(category.description)}</p>` : ""}${articleList(site, articles)}`,
  });
}

export type ArticleView = {
  row: HelpArticleRow;
  html: string;
  headings: Heading[];
  category: HelpCategoryRow | null;
  related: ArticleSummary[];
  translations: HelpArticleRow[];
  author: string | null;
  feedback: FeedbackState;
};

export function articlePage(site: Site, v: ArticleView): string {
  const { row } = v;
  const t = stringsFor(site.locale);
  const toc =
    v.headings.filter((h) => h.level <= 3).length >= 3
      ? `<nav class="toc" aria-label="${esc(t.contents)}"><strong>${esc(t.contents)}</strong><ul>${v.headings
          .filter((h) => h.level <= 3)
          .map((h) => `<li><a href="#${esc(enc(h.id))}">${esc(h.text)}</a></li>`)
          .join("")}</ul></nav>`
      : "";
  const related =
    v.related.length > 0
      ? `<section class="rel"><h2>${esc(t.related)}</h2>${articleList(site, v.related)}</section>`
      : "";
  const description = row.description || row.meta.description || null;
  const url = `${site.canonicalBase}${articlePath(row.slug)}`;
  return page(site, {
    title: row.meta.title || row.title,
    description,
    path: articlePath(row.slug),
    type: "article",
    feedback: true,
    alternates: [row, ...v.translations].map((a) => ({
      locale: a.locale,
      path: articlePath(a.slug),
    })),
    localePaths: new Map(v.translations.map((a) => [a.locale, articlePath(a.slug)])),
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Article",
      headline: row.title,
      description: description ?? undefined,
      inLanguage: row.locale,
      dateModified: new Date(row.updatedAt * 1000).toISOString(),
      datePublished: new Date(row.createdAt * 1000).toISOString(),
      author: v.author ? { "@type": "Person", name: v.author } : undefined,
      mainEntityOfPage: url,
      keywords: row.meta.tags?.join(", ") || undefined,
    },
    body: `${crumbs(site, v.category ? [{ href: categoryPath(v.category.locale, v.category.slug), label: v.category.name }, { label: row.title }] : [{ label: row.title }])}<article><h1>${esc(row.title)}</h1>${description ? `<p class="mu">${esc(description)}</p>` : ""}${toc}${v.html}<p class="mu">${esc(t.updated)} <time datetime="${date(row.updatedAt)}">${date(row.updatedAt)}</time></p></article>${feedbackSection(site.locale, `${site.prefix}${articlePath(row.slug)}/feedback`, v.feedback)}${related}`,
  });
}

/** FTS5 snippet text: escaped, then its match markers become <mark>. */
export const highlight = (snippet: string) =>
  esc(snippet).replaceAll(MARK_OPEN, "<mark>").replaceAll(MARK_CLOSE, "</mark>");

export function searchPage(site: Site, query: string, hits: SearchHit[]): string {
  const t = stringsFor(site.locale);
  const results =
    hits.length === 0
      ? `<p>${esc(t.noMatch(query))}</p>`
      : `<ul class="list">${hits
          .map(
            (h) =>
              `<li><a href="${esc(site.prefix + articlePath(h.slug))}">${esc(h.title)}</a><br><span class="mu">${highlight(h.snippet)}</span></li>`,
          )
          .join("")}</ul>`;
  return page(site, {
    title: query ? `${t.searchButton}: ${query}` : t.searchButton,
    path: `/${enc(site.locale)}/articles`,
    query,
    body: `${crumbs(site, [{ label: t.searchButton }])}<h1>${esc(t.results(hits.length, query))}</h1>${results}`,
  });
}

export function notFoundPage(site: Site | null): string {
  const t = stringsFor(site?.locale ?? "en");
  const body = `<h1>${esc(t.notFound)}</h1><p>${esc(t.notFoundText)}</p>${
    site
      ? `<p><a href="${esc(`${site.prefix}/${enc(site.locale)}`)}">${esc(t.backHome)}</a></p>`
      : ""
  }`;
  if (!site) {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Not found</title><meta name="robots" content="noindex"></head><body><main>${body}</main></body></html>`;
  }
  return page(site, { title: t.notFound, path: "/404", body });
}

export function sitemap(
  site: Site,
  homes: string[],
  categories: HelpCategoryRow[],
  articles: { slug: string; updatedAt: number }[],
): string {
  const loc = (path: string, lastmod?: number) =>
    `<url><loc>${esc(site.canonicalBase + path)}</loc>${lastmod ? `<lastmod>${date(lastmod)}</lastmod>` : ""}</url>`;
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
    ...homes.map((l) => loc(`/${enc(l)}`)),
    ...categories.map((c) => loc(categoryPath(c.locale, c.slug), c.updatedAt)),
    ...articles.map((a) => loc(articlePath(a.slug), a.updatedAt)),
  ].join("")}</urlset>`;
}
