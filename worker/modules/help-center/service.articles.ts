import type { HelpArticleRow, PortalRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import { portalBaseUrl, presentArticle } from "./presenter";
import {
  accountUser,
  articleSlugsLike,
  articleStatusCounts,
  articleWithSlug,
  associatedArticles,
  deleteArticleStatements,
  findArticle,
  insertArticle,
  listArticles as listArticleRows,
  type NewArticle,
  nextPosition,
  setPosition,
  updateArticle as updateArticleRow,
  usersByIds,
} from "./queries.articles";
import { findCategory, findCategoryBySlug, portalCategories } from "./queries.categories";
import { bumpPortal } from "./queries.portals";
import { searchWords } from "./queries.search";
import type { ArticleCreate, ArticleJson, ArticleUpdate } from "./schema.articles";
import { checkLocale } from "./service.categories";
import { firstFreeSlug, slugify } from "./slug";

/** Who writes: the caller's user id and whether they administer the account. */
export type Writer = { userId: number; admin: boolean };

export const PER_PAGE = 25;

export async function loadArticle(deps: Deps, portal: PortalRow, id: number) {
  const row = await findArticle(deps.db, portal.id, id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

export async function presentArticles(
  deps: Deps,
  portal: PortalRow,
  rows: HelpArticleRow[],
  withAssociated: boolean,
): Promise<ArticleJson[]> {
  const authorIds = [...new Set(rows.flatMap((r) => (r.authorId === null ? [] : [r.authorId])))];
  const [categories, authors, associated] = await Promise.all([
    portalCategories(deps.db, portal.id),
    usersByIds(deps.db, authorIds),
    withAssociated
      ? Promise.all(rows.map((r) => associatedArticles(deps.db, r)))
      : rows.map(() => []),
  ]);
  const categoryById = new Map(categories.map((c) => [c.id, c]));
  const authorById = new Map(authors.map((u) => [u.id, u]));
  const base = portalBaseUrl(portal, deps.origin);
  return rows.map((row, i) =>
    presentArticle(row, {
      category: row.categoryId === null ? null : (categoryById.get(row.categoryId) ?? null),
      author: row.authorId === null ? null : (authorById.get(row.authorId) ?? null),
      associated: associated[i] ?? [],
      publicUrl:
        row.status === 1 && !portal.archived
          ? `${base}/articles/${encodeURIComponent(row.slug)}`
          : null,
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

async function articleValues(
  deps: Deps,
  portal: PortalRow,
  current: HelpArticleRow | null,
  input: ArticleUpdate,
  writer: Writer,
): Promise<Partial<NewArticle>> {
  const values: Partial<NewArticle> = {};
  const exceptId = current?.id ?? 0;
  if (input.title !== undefined) {
    values.title = input.title;
  }
  if (input.content !== undefined) {
    values.content = input.content ?? "";
  }
  if (input.description !== undefined) {
    values.description = input.description || null;
  }
  if (input.status !== undefined) {
    values.status = input.status;
  }
  if (input.position !== undefined) {
    values.position = input.position;
  }
  if (input.folder_id !== undefined) {
    values.folderId = input.folder_id;
  }
  if (input.meta !== undefined) {
    values.meta = input.meta;
  }
  if (input.slug) {
    if (await articleWithSlug(deps.db, portal.id, input.slug, exceptId)) {
      throw invalidField("slug", "has already been taken");
    }
    values.slug = input.slug;
  } else if (!current) {
    const base = slugify(input.title ?? "", "article");
    values.slug = firstFreeSlug(base, await articleSlugsLike(deps.db, portal.id, base));
  }
  let locale = input.locale;
  if (input.category_id !== undefined && input.category_id !== null) {
    const category = await findCategory(deps.db, portal.id, input.category_id);
    if (!category) {
      throw invalidField("category_id", "must be a category of this portal");
    }
    locale ??= category.locale;
    if (category.locale !== locale) {
      throw invalidField("category_id", "must be a category of the article's locale");
    }
  }
  if (input.category_id !== undefined) {
    values.categoryId = input.category_id;
  }
  if (locale !== undefined || !current) {
    values.locale = locale ?? portal.defaultLocale;
    checkLocale(portal, values.locale);
  }
  if (input.associated_article_id !== undefined && input.associated_article_id !== null) {
    if (input.associated_article_id === current?.id) {
      throw invalidField("associated_article_id", "must name another article");
    }
    if (!(await findArticle(deps.db, portal.id, input.associated_article_id))) {
      throw invalidField("associated_article_id", "must be an article of this portal");
    }
  }
  if (input.associated_article_id !== undefined) {
    values.associatedArticleId = input.associated_article_id;
  }
  if (input.author_id !== undefined && input.author_id !== writer.userId) {
    if (!writer.admin) {
      throw new ApiError("forbidden", "Only administrators may name another author");
    }
    if (
      input.author_id !== null &&
      !(await accountUser(deps.db, portal.accountId, input.author_id))
    ) {
      throw invalidField("author_id", "must be an agent of this account");
    }
  }
  if (input.author_id !== undefined) {
    values.authorId = input.author_id;
  }
  return values;
}

const slugRace = (err: unknown): never => {
  throw isUniqueViolation(err) ? invalidField("slug", "has already been taken") : err;
};

export async function createArticle(
  deps: Deps,
  portal: PortalRow,
  input: ArticleCreate,
  writer: Writer,
) {
  const values = await articleValues(deps, portal, null, input, writer);
  const position = values.position ?? (await nextPosition(deps.db, portal.id));
  try {
    const [rows] = await deps.db.batch([
      insertArticle(deps.db, {
        authorId: writer.userId,
        ...values,
        position,
        title: input.title,
        slug: values.slug ?? "article",
        locale: values.locale ?? portal.defaultLocale,
        portalId: portal.id,
        accountId: portal.accountId,
      }),
      bumpPortal(deps.db, portal.id, deps.now()),
    ]);
    const row = rows[0];
    if (!row) {
      throw new ApiError("internal_error");
    }
    return row;
  } catch (err) {
    return slugRace(err);
  }
}

export async function updateArticle(
  deps: Deps,
  portal: PortalRow,
  article: HelpArticleRow,
  input: ArticleUpdate,
  writer: Writer,
) {
  const values = await articleValues(deps, portal, article, input, writer);
  try {
    const [rows] = await deps.db.batch([
      updateArticleRow(deps.db, article.id, { ...values, updatedAt: deps.now() }),
      bumpPortal(deps.db, portal.id, deps.now()),
    ]);
    return rows[0] ?? article;
  } catch (err) {
    return slugRace(err);
  }
}

export async function deleteArticle(deps: Deps, portal: PortalRow, article: HelpArticleRow) {
  await deps.db.batch([
    ...deleteArticleStatements(deps.db, article.id),
    bumpPortal(deps.db, portal.id, deps.now()),
  ]);
}

/** Chatwoot's reorder: `{positions_hash: {article_id: position}}`; ids of other portals are ignored. */
export async function reorderArticles(
  deps: Deps,
  portal: PortalRow,
  positions: Record<string, number>,
) {
  const statements = Object.entries(positions).map(([id, position]) =>
    setPosition(deps.db, portal.id, Number(id), position),
  );
  await deps.db.batch([bumpPortal(deps.db, portal.id, deps.now()), ...statements]);
}
