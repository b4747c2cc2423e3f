import { createRoute, type z } from "@hono/zod-openapi";
import type { PlatformEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { idParams } from "../../http/schemas/ids";
import { presentPlatformAccount } from "./presenter";
import {
  PlatformAccountCreateSchema,
  PlatformAccountSchema,
  PlatformAccountUpdateSchema,
} from "./schema";
import { createAccount, deleteAccount, loadPlatformAccount, updateFromPlatform } from "./service";

const tags = ["Platform: accounts"];

// Chatwoot: POST /platform/api/v1/accounts
const create = createRoute({
  method: "post",
  path: "/accounts",
  tags,
  summary: "Create an account",
  request: { body: jsonBody(PlatformAccountCreateSchema) },
  responses: { 200: jsonContent(PlatformAccountSchema, "The new account"), ...errorResponses },
});

// Chatwoot: GET /platform/api/v1/accounts/{id}
const show = createRoute({
  method: "get",
  path: "/accounts/{id}",
  tags,
  summary: "Get an account",
  request: { params: idParams },
  responses: { 200: jsonContent(PlatformAccountSchema, "The account"), ...errorResponses },
});

// Chatwoot: PATCH /platform/api/v1/accounts/{id}
const update = createRoute({
  method: "patch",
  path: "/accounts/{id}",
  tags,
  summary: "Update an account",
  request: { params: idParams, body: jsonBody(PlatformAccountUpdateSchema) },
  responses: { 200: jsonContent(PlatformAccountSchema, "The account"), ...errorResponses },
});

// Chatwoot: DELETE /platform/api/v1/accounts/{id}
const remove = createRoute({
  method: "delete",
  path: "/accounts/{id}",
  tags,
  summary: "Delete an account and everything in it",
  request: { params: idParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

const loadPermitted = (c: { var: PlatformEnv["Variables"] }, id: number) =>
  loadPlatformAccount(c.var.deps, c.var.platformAppId, id);

const version = (env: PlatformEnv["Bindings"]) => env.SERVICE_VERSION ?? null;

export const accountPlatformRoutes = createRouter<PlatformEnv>()
  .openapi(create, async (c) => {
    const row = await createAccount(c.var.deps, c.var.platformAppId, c.req.valid("json"));
    return c.json(presentPlatformAccount(row, version(c.env)), 200);
  })
  .openapi(show, async (c) => {
    const row = await loadPermitted(c, c.req.valid("param").id);
    return c.json(presentPlatformAccount(row, version(c.env)), 200);
  })
  .openapi(update, async (c) => {
    const current = await loadPermitted(c, c.req.valid("param").id);
    const row = await updateFromPlatform(c.var.deps, current, c.req.valid("json"));
    return c.json(presentPlatformAccount(row, version(c.env)), 200);
  })
  .openapi(remove, async (c) => {
    const account = await loadPermitted(c, c.req.valid("param").id);
    await deleteAccount(c.var.deps, account);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
