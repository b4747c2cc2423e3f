import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { ApiError } from "../../lib/errors";
import { callerUserId } from "../conversations/policy";
import {
  ArticleCreateSchema,
  ArticleEnvelopeSchema,
  ArticleListQuery,
  ArticleListSchema,
  ArticleReorderSchema,
  ArticleUpdateSchema,
} from "./schema.articles";
import { ArticleParams, PortalParams } from "./schema.common";
import {
  createArticle,
  deleteArticle,
  loadArticle,
  reorderArticles,
  updateArticle,
  type Writer,
} from "./service.articles";
import { listArticles, presentArticles, presentOneArticle } from "./service.articles.read";
import { loadPortal } from "./service.portals";

const tags = ["Help center"];

const list = createRoute({
  method: "get",
  path: "/portals/{portal_slug}/articles",
  tags,
  summary: "List a portal's articles (25 a page)",
  description:
    "Filters: status, locale, category_slug (within `locale`, else the default locale), " +
    "author_id, query (words, prefix matched). `meta` counts over the filters, status aside.",
  middleware: [requireMember()] as const,
  request: { params: PortalParams, query: ArticleListQuery },
  responses: { 200: jsonContent(ArticleListSchema, "A page of articles"), ...errorResponses },
});

const show = createRoute({
  method: "get",
  path: "/portals/{portal_slug}/articles/{article_id}",
  tags,
  summary: "Get an article",
  middleware: [requireMember()] as const,
  request: { params: ArticleParams },
  responses: { 200: jsonContent(ArticleEnvelopeSchema, "The article"), ...errorResponses },
});

const create = createRoute({
  method: "post",
  path: "/portals/{portal_slug}/articles",
  tags,
  summary: "Add an article (E10)",
  description:
    "Any agent of the account; the author is the caller unless an administrator names another " +
    "agent in author_id. Answers the record, and the same record under `payload`.",
  middleware: [requireMember()] as const,
  request: { params: PortalParams, body: jsonBody(unwrapped("article", ArticleCreateSchema)) },
  responses: { 200: jsonContent(ArticleEnvelopeSchema, "The new article"), ...errorResponses },
});

const update = createRoute({
  method: "patch",
  path: "/portals/{portal_slug}/articles/{article_id}",
  tags,
  summary: "Update an article",
  middleware: [requireMember()] as const,
  request: { params: ArticleParams, body: jsonBody(unwrapped("article", ArticleUpdateSchema)) },
  responses: { 200: jsonContent(ArticleEnvelopeSchema, "The article"), ...errorResponses },
});

const remove = createRoute({
  method: "delete",
  path: "/portals/{portal_slug}/articles/{article_id}",
  tags,
  summary: "Delete an article",
  middleware: [requireMember()] as const,
  request: { params: ArticleParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

const reorder = createRoute({
  method: "post",
  path: "/portals/{portal_slug}/articles/reorder",
  tags,
  summary: "Set the position of several articles",
  middleware: [requireMember()] as const,
  request: { params: PortalParams, body: jsonBody(unwrapped("article", ArticleReorderSchema)) },
  responses: { 200: jsonContent(DeletedSchema, "Reordered"), ...errorResponses },
});

function writerOf(c: { var: AccountEnv["Variables"] }): Writer {
  const userId = callerUserId(c.var.actor);
  if (userId === null) {
    throw new ApiError("not_authorized_for_bots");
  }
  return { userId, admin: c.var.role === "administrator" };
}

export const articleAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const portal = await loadPortal(c.var.deps, c.var.account.id, c.req.valid("param").portal_slug);
    const { rows, meta } = await listArticles(
      c.var.deps,
      portal,
      c.req.valid("query"),
      callerUserId(c.var.actor),
    );
    return c.json({ payload: await presentArticles(c.var.deps, portal, rows, false), meta }, 200);
  })
  // Before `/articles/{article_id}`: "reorder" is not an id, but the order keeps it obvious.
  .openapi(reorder, async (c) => {
    const portal = await loadPortal(c.var.deps, c.var.account.id, c.req.valid("param").portal_slug);
    await reorderArticles(c.var.deps, portal, c.req.valid("json").positions_hash);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  })
  .openapi(show, async (c) => {
    const { portal_slug, article_id } = c.req.valid("param");
    const portal = await loadPortal(c.var.deps, c.var.account.id, portal_slug);
    const json = await presentOneArticle(
      c.var.deps,
      portal,
      await loadArticle(c.var.deps, portal, article_id),
    );
    return c.json({ ...json, payload: json }, 200);
  })
  .openapi(create, async (c) => {
    const portal = await loadPortal(c.var.deps, c.var.account.id, c.req.valid("param").portal_slug);
    const row = await createArticle(c.var.deps, portal, c.req.valid("json"), writerOf(c));
    const json = await presentOneArticle(c.var.deps, portal, row);
    return c.json({ ...json, payload: json }, 200);
  })
  .openapi(update, async (c) => {
    const { portal_slug, article_id } = c.req.valid("param");
    const portal = await loadPortal(c.var.deps, c.var.account.id, portal_slug);
    const current = await loadArticle(c.var.deps, portal, article_id);
    const row = await updateArticle(c.var.deps, portal, current, c.req.valid("json"), writerOf(c));
    const json = await presentOneArticle(c.var.deps, portal, row);
    return c.json({ ...json, payload: json }, 200);
  })
  .openapi(remove, async (c) => {
    const { portal_slug, article_id } = c.req.valid("param");
    const portal = await loadPortal(c.var.deps, c.var.account.id, portal_slug);
    await deleteArticle(c.var.deps, portal, await loadArticle(c.var.deps, portal, article_id));
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
