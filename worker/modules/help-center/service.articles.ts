import type { HelpArticleRow, PortalRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError, invalidField } from "../../lib/errors";
import {
  accountUser,
  articleSlugsLike,
  articleWithSlug,
  deleteArticleStatements,
  findArticle,
  insertArticle,
  type NewArticle,
  nextPosition,
  setPosition,
  updateArticle as updateArticleRow,
} from "./queries.articles";
import { findCategory } from "./queries.categories";
import { bumpPortal } from "./queries.portals";
import type { ArticleCreate, ArticleUpdate } from "./schema.articles";
import { checkLocale } from "./service.categories";
import { inserted, writeBumping } from "./service.write";
import { firstFreeSlug, slugify } from "./slug";

/** Who writes: the caller's user id and whether they administer the account. */
export type Writer = { userId: number; admin: boolean };

export async function loadArticle(deps: Deps, portal: PortalRow, id: number) {
  const row = await findArticle(deps.db, portal.id, id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
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

export async function createArticle(
  deps: Deps,
  portal: PortalRow,
  input: ArticleCreate,
  writer: Writer,
) {
  const values = await articleValues(deps, portal, null, input, writer);
  const position = values.position ?? (await nextPosition(deps.db, portal.id));
  const insert = insertArticle(deps.db, {
    authorId: writer.userId,
    ...values,
    position,
    title: input.title,
    slug: values.slug ?? "article",
    locale: values.locale ?? portal.defaultLocale,
    portalId: portal.id,
    accountId: portal.accountId,
  });
  return inserted(await writeBumping(deps, portal.id, insert));
}

export async function updateArticle(
  deps: Deps,
  portal: PortalRow,
  article: HelpArticleRow,
  input: ArticleUpdate,
  writer: Writer,
) {
  const values = await articleValues(deps, portal, article, input, writer);
  const update = updateArticleRow(deps.db, article.id, { ...values, updatedAt: deps.now() });
  return (await writeBumping(deps, portal.id, update)) ?? article;
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
