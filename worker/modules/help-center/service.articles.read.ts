import type { HelpArticleRow, PortalRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { articlePath, portalBaseUrl, presentArticle } from "./presenter";
import {
  articleStatusCounts,
  associatedArticles,
  listArticles as listArticleRows,
  usersByIds,
} from "./queries.articles";
import { findCategoryBySlug, portalCategories } from "./queries.categories";
import { searchWords } from "./queries.search";
import type { ArticleJson } from "./schema.articles";
import { feedbackByArticle } from "./service.feedback";

export const PER_PAGE = 25;

export async function presentArticles(
  deps: Deps,
  portal: PortalRow,
  rows: HelpArticleRow[],
  withAssociated: boolean,
): Promise<ArticleJson[]> {
  const authorIds = [...new Set(rows.flatMap((r) => (r.authorId === null ? [] : [r.authorId])))];
  const [categories, authors, associated, feedback] = await Promise.all([
    portalCategories(deps.db, portal.id),
    usersByIds(deps.db, authorIds),
    withAssociated
      ? Promise.all(rows.map((r) => associatedArticles(deps.db, r)))
      : rows.map(() => []),
    feedbackByArticle(
      deps,
      rows.map((r) => r.id),
    ),
  ]);
  const categoryById = new Map(categories.map((c) => [c.id, c]));
  const authorById = new Map(authors.map((u) => [u.id, u]));
  const base = portalBaseUrl(portal, deps.origin);
  return rows.map((row, i) =>
    presentArticle(row, {
      category: row.categoryId === null ? null : (categoryById.get(row.categoryId) ?? null),
      author: row.authorId === null ? null : (authorById.get(row.authorId) ?? null),
      associated: associated[i] ?? [],
      publicUrl: row.status === 1 && !portal.archived ? base + articlePath(row.slug) : null,
      feedback: feedback.get(row.id),
    }),
  );
}

export async function presentOneArticle(deps: Deps, portal: PortalRow, row: HelpArticleRow) {
  const [json] = await presentArticles(deps, portal, [row], true);
  if (!json) {
    throw new ApiError("internal_error");
  }
  return json;
}

export type ArticleQuery = {
  status?: number;
  locale?: string;
  category_slug?: string;
  author_id?: number;
  query?: string;
  page?: number;
};

/** Chatwoot's list: filtered rows of one page, and counts over the filter (status aside). */
export async function listArticles(
  deps: Deps,
  portal: PortalRow,
  q: ArticleQuery,
  callerId: number | null,
) {
  let categoryId: number | undefined;
  if (q.category_slug) {
    const category = await findCategoryBySlug(
      deps.db,
      portal.id,
      q.locale ?? portal.defaultLocale,
      q.category_slug,
    );
    // An unknown category lists nothing rather than everything.
    categoryId = category?.id ?? -1;
  }
  const filter = {
    status: q.status,
    locale: q.locale,
    categoryId,
    authorId: q.author_id,
    words: q.query ? searchWords(q.query) : undefined,
  };
  const page = Math.max(1, q.page ?? 1);
  const [rows, counts] = await Promise.all([
    listArticleRows(deps.db, portal.id, filter, page, PER_PAGE),
    articleStatusCounts(deps.db, portal.id, filter),
  ]);
  const byStatus = [0, 0, 0];
  let mine = 0;
  for (const c of counts) {
    byStatus[c.status] = (byStatus[c.status] ?? 0) + c.n;
    if (callerId !== null && c.authorId === callerId) {
      mine += c.n;
    }
  }
  const all = (byStatus[0] ?? 0) + (byStatus[1] ?? 0) + (byStatus[2] ?? 0);
  return {
    rows,
    meta: {
      current_page: page,
      articles_count: q.status === undefined ? all : (byStatus[q.status] ?? 0),
      all_articles_count: all,
      draft_articles_count: byStatus[0] ?? 0,
      published_count: byStatus[1] ?? 0,
      archived_articles_count: byStatus[2] ?? 0,
      mine_articles_count: mine,
    },
  };
}
