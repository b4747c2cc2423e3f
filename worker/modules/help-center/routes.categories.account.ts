import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import {
  CategoryCreateSchema,
  CategoryEnvelopeSchema,
  CategoryListQuery,
  CategoryListSchema,
  CategoryUpdateSchema,
} from "./schema.categories";
import { CategoryParams, PortalParams } from "./schema.common";
import {
  createCategory,
  deleteCategory,
  listCategories,
  loadCategory,
  presentCategories,
  presentOneCategory,
  updateCategory,
} from "./service.categories";
import { loadPortal } from "./service.portals";

const tags = ["Help center"];

const list = createRoute({
  method: "get",
  path: "/portals/{portal_slug}/categories",
  tags,
  summary: "List a portal's categories (optionally of one locale)",
  middleware: [requireMember()] as const,
  request: { params: PortalParams, query: CategoryListQuery },
  responses: { 200: jsonContent(CategoryListSchema, "The categories"), ...errorResponses },
});

const show = createRoute({
  method: "get",
  path: "/portals/{portal_slug}/categories/{category_id}",
  tags,
  summary: "Get a category",
  middleware: [requireMember()] as const,
  request: { params: CategoryParams },
  responses: { 200: jsonContent(CategoryEnvelopeSchema, "The category"), ...errorResponses },
});

const create = createRoute({
  method: "post",
  path: "/portals/{portal_slug}/categories",
  tags,
  summary: "Add a category (E11, administrators)",
  description:
    "Answers the category record, and the same record under `payload` (Chatwoot clients read it). " +
    "The slug is unique per portal and locale; a blank one is made from the name.",
  middleware: [requireAdmin] as const,
  request: { params: PortalParams, body: jsonBody(unwrapped("category", CategoryCreateSchema)) },
  responses: { 200: jsonContent(CategoryEnvelopeSchema, "The new category"), ...errorResponses },
});

const update = createRoute({
  method: "patch",
  path: "/portals/{portal_slug}/categories/{category_id}",
  tags,
  summary: "Update a category (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: CategoryParams, body: jsonBody(unwrapped("category", CategoryUpdateSchema)) },
  responses: { 200: jsonContent(CategoryEnvelopeSchema, "The category"), ...errorResponses },
});

const remove = createRoute({
  method: "delete",
  path: "/portals/{portal_slug}/categories/{category_id}",
  tags,
  summary: "Delete a category; its articles become uncategorised (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: CategoryParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

export const categoryAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const { portal_slug } = c.req.valid("param");
    const portal = await loadPortal(c.var.deps, c.var.account.id, portal_slug);
    const rows = await listCategories(c.var.deps, portal, c.req.valid("query").locale);
    const payload = await presentCategories(c.var.deps, portal, rows);
    return c.json({ payload, meta: { current_page: 1, categories_count: payload.length } }, 200);
  })
  .openapi(show, async (c) => {
    const { portal_slug, category_id } = c.req.valid("param");
    const portal = await loadPortal(c.var.deps, c.var.account.id, portal_slug);
    const json = await presentOneCategory(
      c.var.deps,
      portal,
      await loadCategory(c.var.deps, portal, category_id),
    );
    return c.json({ ...json, payload: json }, 200);
  })
  .openapi(create, async (c) => {
    const portal = await loadPortal(c.var.deps, c.var.account.id, c.req.valid("param").portal_slug);
    const row = await createCategory(c.var.deps, portal, c.req.valid("json"));
    const json = await presentOneCategory(c.var.deps, portal, row);
    return c.json({ ...json, payload: json }, 200);
  })
  .openapi(update, async (c) => {
    const { portal_slug, category_id } = c.req.valid("param");
    const portal = await loadPortal(c.var.deps, c.var.account.id, portal_slug);
    const current = await loadCategory(c.var.deps, portal, category_id);
    const row = await updateCategory(c.var.deps, portal, current, c.req.valid("json"));
    const json = await presentOneCategory(c.var.deps, portal, row);
    return c.json({ ...json, payload: json }, 200);
  })
  .openapi(remove, async (c) => {
    const { portal_slug, category_id } = c.req.valid("param");
    const portal = await loadPortal(c.var.deps, c.var.account.id, portal_slug);
    await deleteCategory(c.var.deps, portal, await loadCategory(c.var.deps, portal, category_id));
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
