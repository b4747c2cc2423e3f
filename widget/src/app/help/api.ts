// The portal's public JSON (same origin as the frame: the Worker serves both).
import type { PublicPortal } from "../../../../worker/modules/inboxes/schema.public";
import { articleLocale } from "./locale";

export type ArticleSummary = {
  id: number;
  title: string;
  slug: string;
  description: string | null;
};
export type ArticleBody = ArticleSummary & { html: string; url: string };

const base = (portal: PublicPortal) => `${location.origin}/hc/${encodeURIComponent(portal.slug)}`;

async function get<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) {
    throw new Error(`${res.status}`);
  }
  return (await res.json()) as T;
}

/** The 6 most viewed articles with no query, else the search's results. */
export const searchArticles = (portal: PublicPortal, query: string) =>
  get<{ payload: ArticleSummary[] }>(
    `${base(portal)}/${encodeURIComponent(articleLocale(portal))}/articles.json${
      query ? `?query=${encodeURIComponent(query)}` : ""
    }`,
  ).then((r) => r.payload);

export const fetchArticle = (portal: PublicPortal, slug: string) =>
  get<ArticleBody>(`${base(portal)}/articles/${encodeURIComponent(slug)}.json`);
