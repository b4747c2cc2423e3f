import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { scopeOf } from "../../http/scope";
import { presentCannedResponse } from "./presenter";
import { listCannedResponses, searchCannedResponses } from "./queries";
import {
  CannedResponseCreateSchema,
  CannedResponseListQuery,
  CannedResponseListSchema,
  CannedResponseParams,
  CannedResponseSchema,
  CannedResponseShowQuery,
  CannedResponseUpdateSchema,
} from "./schema";
import {
  createCannedResponse,
  deleteCannedResponse,
  expandFor,
  loadCannedResponse,
  updateCannedResponse,
} from "./service";

// Every member manages the account's canned responses, as in Chatwoot (no policy there).
const tags = ["Canned Responses"];

// Chatwoot: GET /api/v1/accounts/{a}/canned_responses(?search=)
const list = createRoute({
  method: "get",
  path: "/canned_responses",
  tags,
  summary: "List the account's canned responses, or search them by short code or content",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, query: CannedResponseListQuery },
  responses: {
    200: jsonContent(CannedResponseListSchema, "Canned responses (best matches first)"),
    ...errorResponses,
  },
});

// Parley: Chatwoot has no show route; its dashboard fills the variables in itself.
const show = createRoute({
  method: "get",
  path: "/canned_responses/{id}",
  tags,
  summary: "Get a canned response, its {{variables}} filled in for ?conversation_id=",
  middleware: [requireMember()] as const,
  request: { params: CannedResponseParams, query: CannedResponseShowQuery },
  responses: { 200: jsonContent(CannedResponseSchema, "The canned response"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/canned_responses
const create = createRoute({
  method: "post",
  path: "/canned_responses",
  tags,
  summary: "Create a canned response",
  middleware: [requireMember()] as const,
  request: {
    params: AccountParams,
    body: jsonBody(unwrapped("canned_response", CannedResponseCreateSchema)),
  },
  responses: {
    200: jsonContent(CannedResponseSchema, "The new canned response"),
    ...errorResponses,
  },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/canned_responses/{id}
const update = createRoute({
  method: "patch",
  path: "/canned_responses/{id}",
  tags,
  summary: "Update a canned response",
  middleware: [requireMember()] as const,
  request: {
    params: CannedResponseParams,
    body: jsonBody(unwrapped("canned_response", CannedResponseUpdateSchema)),
  },
  responses: { 200: jsonContent(CannedResponseSchema, "The canned response"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/canned_responses/{id}
const remove = createRoute({
  method: "delete",
  path: "/canned_responses/{id}",
  tags,
  summary: "Delete a canned response",
  middleware: [requireMember()] as const,
  request: { params: CannedResponseParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

export const cannedResponseAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const { search } = c.req.valid("query");
    const db = c.var.deps.db;
    const rows = search?.trim()
      ? await searchCannedResponses(db, c.var.account.id, search.trim())
      : await listCannedResponses(db, c.var.account.id);
    return c.json(
      rows.map((row) => presentCannedResponse(row)),
      200,
    );
  })
  .openapi(show, async (c) => {
    const row = await loadCannedResponse(c.var.deps, c.var.account.id, c.req.valid("param").id);
    const { conversation_id } = c.req.valid("query");
    const content =
      conversation_id === undefined
        ? row.content
        : await expandFor(scopeOf(c), row, conversation_id);
    return c.json(presentCannedResponse(row, content), 200);
  })
  .openapi(create, async (c) => {
    const row = await createCannedResponse(c.var.deps, c.var.account.id, c.req.valid("json"));
    return c.json(presentCannedResponse(row), 200);
  })
  .openapi(update, async (c) => {
    const current = await loadCannedResponse(c.var.deps, c.var.account.id, c.req.valid("param").id);
    const row = await updateCannedResponse(c.var.deps, current, c.req.valid("json"));
    return c.json(presentCannedResponse(row), 200);
  })
  .openapi(remove, async (c) => {
    const row = await loadCannedResponse(c.var.deps, c.var.account.id, c.req.valid("param").id);
    await deleteCannedResponse(c.var.deps, row);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
