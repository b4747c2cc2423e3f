import { createRoute } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { presentDefinition } from "./presenter";
import { listDefinitions } from "./queries";
import {
  DefinitionCreateSchema,
  DefinitionListQuery,
  DefinitionListSchema,
  DefinitionParams,
  DefinitionSchema,
  DefinitionUpdateSchema,
} from "./schema";
import { createDefinition, deleteDefinition, loadDefinition, updateDefinition } from "./service";

const tags = ["Custom attributes"];
const WRAP = "custom_attribute_definition";

// Chatwoot: GET /api/v1/accounts/{a}/custom_attribute_definitions
const list = createRoute({
  method: "get",
  path: "/custom_attribute_definitions",
  tags,
  summary: "List custom attribute definitions, optionally of one model",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, query: DefinitionListQuery },
  responses: { 200: jsonContent(DefinitionListSchema, "The definitions"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/custom_attribute_definitions/{id}
const show = createRoute({
  method: "get",
  path: "/custom_attribute_definitions/{id}",
  tags,
  summary: "Get a custom attribute definition",
  middleware: [requireMember()] as const,
  request: { params: DefinitionParams },
  responses: { 200: jsonContent(DefinitionSchema, "The definition"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/custom_attribute_definitions
const create = createRoute({
  method: "post",
  path: "/custom_attribute_definitions",
  tags,
  summary: "Add a custom attribute definition (E12, administrators)",
  description:
    "attribute_display_type and attribute_model take Chatwoot's integers or their names; the " +
    "response gives names. Fields may be nested under `custom_attribute_definition`.",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(unwrapped(WRAP, DefinitionCreateSchema)) },
  responses: { 200: jsonContent(DefinitionSchema, "The new definition"), ...errorResponses },
});

const change = (method: "patch" | "put") =>
  createRoute({
    method,
    path: "/custom_attribute_definitions/{id}",
    tags,
    summary: "Update a custom attribute definition (administrators)",
    middleware: [requireAdmin] as const,
    request: { params: DefinitionParams, body: jsonBody(unwrapped(WRAP, DefinitionUpdateSchema)) },
    responses: { 200: jsonContent(DefinitionSchema, "The definition"), ...errorResponses },
  });

// Chatwoot: PATCH /api/v1/accounts/{a}/custom_attribute_definitions/{id}
const patch = change("patch");
// Chatwoot: PUT /api/v1/accounts/{a}/custom_attribute_definitions/{id}
const put = change("put");

// Chatwoot: DELETE /api/v1/accounts/{a}/custom_attribute_definitions/{id}
const remove = createRoute({
  method: "delete",
  path: "/custom_attribute_definitions/{id}",
  tags,
  summary: "Delete a custom attribute definition (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: DefinitionParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

export const customAttributeAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const model = c.req.valid("query").attribute_model;
    const rows = await listDefinitions(c.var.deps.db, c.var.account.id, model);
    return c.json(rows.map(presentDefinition), 200);
  })
  .openapi(show, async (c) => {
    const row = await loadDefinition(c.var.deps, c.var.account.id, c.req.valid("param").id);
    return c.json(presentDefinition(row), 200);
  })
  .openapi(create, async (c) => {
    const row = await createDefinition(c.var.deps, c.var.account.id, c.req.valid("json"));
    return c.json(presentDefinition(row), 200);
  })
  .openapi(patch, async (c) => {
    const row = await loadDefinition(c.var.deps, c.var.account.id, c.req.valid("param").id);
    return c.json(
      presentDefinition(await updateDefinition(c.var.deps, row, c.req.valid("json"))),
      200,
    );
  })
  .openapi(put, async (c) => {
    const row = await loadDefinition(c.var.deps, c.var.account.id, c.req.valid("param").id);
    return c.json(
      presentDefinition(await updateDefinition(c.var.deps, row, c.req.valid("json"))),
      200,
    );
  })
  .openapi(remove, async (c) => {
    const row = await loadDefinition(c.var.deps, c.var.account.id, c.req.valid("param").id);
    await deleteDefinition(c.var.deps, row);
    return c.json({}, 200);
  });
