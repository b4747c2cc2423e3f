import type { Deps } from "../../events/deps";
import type { PublicResult } from "./public-result";
import { popularArticles } from "./queries.public";
import { searchPublished, searchWords } from "./queries.search";
import type { Site } from "./render/layout";
import { highlight, searchPage } from "./render/pages";

const JSON_TYPE = "application/json; charset=utf-8";

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
  const url = (slug: string) => `${site.canonicalBase}/articles/${encodeURIComponent(slug)}`;
  if (json && words.length === 0) {
    const popular = await popularArticles(deps.db, site.portal.id, site.locale, 6);
    const payload = popular.map((a) => ({
      id: a.id,
      title: a.title,
      slug: a.slug,
      description: a.description,
      url: url(a.slug),
      snippet_html: null,
      updated_at: a.updatedAt,
    }));
    return {
      status: 200,
      type: JSON_TYPE,
      body: JSON.stringify({
        payload,
        meta: { query, locale: site.locale, count: payload.length, popular: true },
      }),
    };
  }
  const hits = await searchPublished(deps.db, site.portal.id, site.locale, words, 20);
  if (!json) {
    return { status: 200, type: "text/html; charset=utf-8", body: searchPage(site, query, hits) };
  }
  const payload = hits.map((h) => ({
    id: h.id,
    title: h.title,
    slug: h.slug,
    description: h.description,
    url: url(h.slug),
    snippet_html: highlight(h.snippet),
    updated_at: h.updatedAt,
  }));
  return {
    status: 200,
    type: JSON_TYPE,
    body: JSON.stringify({
      payload,
      meta: { query, locale: site.locale, count: payload.length, popular: false },
    }),
  };
}
