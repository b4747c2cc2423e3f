import type { Deps } from "../../events/deps";
import { articlePath } from "./presenter";
import type { PublicResult } from "./public-result";
import { popularArticles } from "./queries.public";
import { type SearchHit, searchPublished, searchWords } from "./queries.search";
import type { Site } from "./render/layout";
import { highlight, searchPage } from "./render/pages";

const JSON_TYPE = "application/json; charset=utf-8";

/** What a popular article and a search hit share: one JSON item each. */
type ArticleHit = Pick<SearchHit, "id" | "title" | "slug" | "description" | "updatedAt">;

/**
 * Search results as a page, or as JSON for the widget and other clients. JSON with no words
 * answers the most viewed articles instead (what a widget's help home lists before typing).
 */
export async function searchResult(
  deps: Deps,
  site: Site,
  query: string,
  json: boolean,
): Promise<PublicResult> {
  const words = searchWords(query);
  const found = (popular: boolean, payload: unknown[]): PublicResult => ({
    status: 200,
    type: JSON_TYPE,
    body: JSON.stringify({
      payload,
      meta: { query, locale: site.locale, count: payload.length, popular },
    }),
  });
  const item = (a: ArticleHit, snippet: string | null) => ({
    id: a.id,
    title: a.title,
    slug: a.slug,
    description: a.description,
    url: site.canonicalBase + articlePath(a.slug),
    snippet_html: snippet === null ? null : highlight(snippet),
    updated_at: a.updatedAt,
  });
  if (json && words.length === 0) {
    const popular = await popularArticles(deps.db, site.portal.id, site.locale, 6);
    return found(
      true,
      popular.map((a) => item(a, null)),
    );
  }
  const hits = await searchPublished(deps.db, site.portal.id, site.locale, words, 20);
  if (!json) {
    return { status: 200, type: "text/html; charset=utf-8", body: searchPage(site, query, hits) };
  }
  return found(
    false,
    hits.map((h) => item(h, h.snippet)),
  );
}
