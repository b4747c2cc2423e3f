import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { ApiError } from "../../lib/errors";
import { presentCustomFilter } from "./presenter";
import { listCustomFilters } from "./queries";
import {
  CustomFilterCreateSchema,
  CustomFilterListQuery,
  CustomFilterListSchema,
  CustomFilterParams,
  CustomFilterSchema,
  CustomFilterUpdateSchema,
} from "./schema";
import {
  createCustomFilter,
  deleteCustomFilter,
  type FilterOwner,
  loadCustomFilter,
  updateCustomFilter,
} from "./service";

const tags = ["Custom Filters"];

/** Saved filters belong to a user (bots are refused by requireMember before this). */
function ownerOf(c: Context<AccountEnv>): FilterOwner {
  const actor = c.var.actor;
  if (actor.kind !== "user") {
    throw new ApiError("not_authorized_for_bots");
  }
  return { deps: c.var.deps, accountId: c.var.account.id, userId: actor.user.id };
}

// Chatwoot: GET /api/v1/accounts/{a}/custom_filters?filter_type=
const list = createRoute({
  method: "get",
  path: "/custom_filters",
  tags,
  summary: "List the caller's saved filters of one type (conversation by default)",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, query: CustomFilterListQuery },
  responses: {
    200: jsonContent(CustomFilterListSchema, "The caller's filters"),
    ...errorResponses,
  },
});

// Chatwoot: GET /api/v1/accounts/{a}/custom_filters/{id}
const show = createRoute({
  method: "get",
  path: "/custom_filters/{custom_filter_id}",
  tags,
  summary: "Get one of the caller's saved filters",
  middleware: [requireMember()] as const,
  request: { params: CustomFilterParams },
  responses: { 200: jsonContent(CustomFilterSchema, "The filter"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/custom_filters
const create = createRoute({
  method: "post",
  path: "/custom_filters",
  tags,
  summary: "Save a filter (its query checked with the filter DSL)",
  middleware: [requireMember()] as const,
  request: {
    params: AccountParams,
    body: jsonBody(unwrapped("custom_filter", CustomFilterCreateSchema)),
  },
  responses: { 200: jsonContent(CustomFilterSchema, "The new filter"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/custom_filters/{id}
const update = createRoute({
  method: "patch",
  path: "/custom_filters/{custom_filter_id}",
  tags,
  summary: "Update one of the caller's saved filters",
  middleware: [requireMember()] as const,
  request: {
    params: CustomFilterParams,
    body: jsonBody(unwrapped("custom_filter", CustomFilterUpdateSchema)),
  },
  responses: { 200: jsonContent(CustomFilterSchema, "The filter"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/custom_filters/{id} (204 there; 200 {} like every delete here)
const remove = createRoute({
  method: "delete",
  path: "/custom_filters/{custom_filter_id}",
  tags,
  summary: "Delete one of the caller's saved filters",
  middleware: [requireMember()] as const,
  request: { params: CustomFilterParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

export const customFilterAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const owner = ownerOf(c);
    const type = c.req.valid("query").filter_type ?? "conversation";
    const rows = await listCustomFilters(owner.deps.db, owner.accountId, owner.userId, type);
    return c.json(rows.map(presentCustomFilter), 200);
  })
  .openapi(show, async (c) => {
    const row = await loadCustomFilter(ownerOf(c), c.req.valid("param").custom_filter_id);
    return c.json(presentCustomFilter(row), 200);
  })
  .openapi(create, async (c) => {
    return c.json(
      presentCustomFilter(await createCustomFilter(ownerOf(c), c.req.valid("json"))),
      200,
    );
  })
  .openapi(update, async (c) => {
    const owner = ownerOf(c);
    const current = await loadCustomFilter(owner, c.req.valid("param").custom_filter_id);
    const row = await updateCustomFilter(owner, current, c.req.valid("json"));
    return c.json(presentCustomFilter(row), 200);
  })
  .openapi(remove, async (c) => {
    const owner = ownerOf(c);
    const row = await loadCustomFilter(owner, c.req.valid("param").custom_filter_id);
    await deleteCustomFilter(owner, row);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
