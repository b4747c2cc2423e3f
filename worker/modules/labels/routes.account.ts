import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { presentLabel } from "./presenter";
import { listLabels } from "./queries";
import {
  LabelCreateSchema,
  LabelListSchema,
  LabelParams,
  LabelSchema,
  LabelUpdateSchema,
} from "./schema";
import { createLabel, deleteLabel, loadLabel, updateLabel } from "./service";

const tags = ["Labels"];

// Chatwoot: GET /api/v1/accounts/{a}/labels
const list = createRoute({
  method: "get",
  path: "/labels",
  tags,
  summary: "List the account's labels",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: { 200: jsonContent(LabelListSchema, "Every label of the account"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/labels/{id}
const show = createRoute({
  method: "get",
  path: "/labels/{id}",
  tags,
  summary: "Get a label",
  middleware: [requireMember()] as const,
  request: { params: LabelParams },
  responses: { 200: jsonContent(LabelSchema, "The label"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/labels
const create = createRoute({
  method: "post",
  path: "/labels",
  tags,
  summary: "Create a label (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(unwrapped("label", LabelCreateSchema)) },
  responses: { 200: jsonContent(LabelSchema, "The new label"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/labels/{id}
const update = createRoute({
  method: "patch",
  path: "/labels/{id}",
  tags,
  summary: "Update a label (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: LabelParams, body: jsonBody(unwrapped("label", LabelUpdateSchema)) },
  responses: { 200: jsonContent(LabelSchema, "The updated label"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/labels/{id}
const remove = createRoute({
  method: "delete",
  path: "/labels/{id}",
  tags,
  summary: "Delete a label (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: LabelParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

export const labelAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const rows = await listLabels(c.var.deps.db, c.var.account.id);
    return c.json({ payload: rows.map(presentLabel) }, 200);
  })
  .openapi(show, async (c) => {
    const label = await loadLabel(c.var.deps, c.var.account.id, c.req.valid("param").id);
    return c.json(presentLabel(label), 200);
  })
  .openapi(create, async (c) => {
    const label = await createLabel(c.var.deps, c.var.account.id, c.req.valid("json"));
    return c.json(presentLabel(label), 200);
  })
  .openapi(update, async (c) => {
    const current = await loadLabel(c.var.deps, c.var.account.id, c.req.valid("param").id);
    return c.json(presentLabel(await updateLabel(c.var.deps, current, c.req.valid("json"))), 200);
  })
  .openapi(remove, async (c) => {
    const label = await loadLabel(c.var.deps, c.var.account.id, c.req.valid("param").id);
    await deleteLabel(c.var.deps, label);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
