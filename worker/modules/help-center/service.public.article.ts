import type { PortalRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { articlePath } from "./presenter";
import type { PublicResult } from "./public-result";
import { associatedArticles, usersByIds } from "./queries.articles";
import { categoriesByIds, publishedArticle, relatedArticles } from "./queries.public";
import type { FeedbackState } from "./render/feedback";
import type { Site } from "./render/layout";
import { renderMarkdown } from "./render/markdown";
import { articlePage, notFoundPage } from "./render/pages";
import { sanitizeHtml } from "./render/sanitize";

const HTML = "text/html; charset=utf-8";

export const notFound = (site: Site | null): PublicResult => ({
  status: 404,
  body: notFoundPage(site),
  type: HTML,
});

export const html = (body: string, articleId?: number): PublicResult => ({
  status: 200,
  body,
  type: HTML,
  articleId,
});

/** An article: its page, its raw markdown (`.md`) or its JSON for the widget (`.json`). */
export async function article(
  deps: Deps,
  portal: PortalRow,
  site: (l: string) => Site,
  slugPart: string,
  feedback: FeedbackState,
): Promise<PublicResult> {
  const raw = slugPart.endsWith(".md");
  const asJson = slugPart.endsWith(".json");
  const slug = raw ? slugPart.slice(0, -3) : asJson ? slugPart.slice(0, -5) : slugPart;
  const row = await publishedArticle(deps.db, portal.id, slug);
  if (!row || !portal.allowedLocales.includes(row.locale)) {
    return notFound(site(portal.defaultLocale));
  }
  if (raw) {
    return {
      status: 200,
      type: "text/markdown; charset=utf-8",
      body: `# ${row.title}\n\n${row.content}`,
      articleId: row.id,
    };
  }
  const [associated, related, categories, authors] = await Promise.all([
    associatedArticles(deps.db, row),
    row.categoryId === null
      ? []
      : relatedArticles(deps.db, portal.id, row.locale, row.categoryId, row.id),
    row.categoryId === null ? [] : categoriesByIds(deps.db, [row.categoryId]),
    row.authorId === null ? [] : usersByIds(deps.db, [row.authorId]),
  ]);
  const rendered = renderMarkdown(row.content);
  const author = authors[0];
  if (asJson) {
    // The article for the widget (or any client): the same sanitised HTML as the page.
    const s = site(row.locale);
    const body = {
      id: row.id,
      title: row.title,
      slug: row.slug,
      description: row.description,
      locale: row.locale,
      url: s.canonicalBase + articlePath(row.slug),
      html: await sanitizeHtml(rendered.html),
      updated_at: row.updatedAt,
    };
    return {
      status: 200,
      type: "application/json; charset=utf-8",
      body: JSON.stringify(body),
      articleId: row.id,
    };
  }
  return html(
    articlePage(site(row.locale), {
      row,
      html: await sanitizeHtml(rendered.html),
      headings: rendered.headings,
      category: categories[0] ?? null,
      related,
      // Only the public translations: one per other locale.
      translations: associated.filter(
        (a, i, all) =>
          a.status === 1 &&
          a.locale !== row.locale &&
          portal.allowedLocales.includes(a.locale) &&
          all.findIndex((b) => b.status === 1 && b.locale === a.locale) === i,
      ),
      author: author ? author.displayName || author.name : null,
      feedback,
    }),
    row.id,
  );
}
