import { createRoute } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { presentAccount } from "./presenter";
import { AccountSchema, AccountUpdateSchema } from "./schema";
import { updateSettings } from "./service";

const tags = ["Account"];

// Chatwoot: GET /api/v1/accounts/{id}
const show = createRoute({
  method: "get",
  path: "/",
  tags,
  summary: "Get account details (E6)",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: {
    200: jsonContent(AccountSchema, "The account"),
    401: errorResponses[401],
    404: errorResponses[404],
  },
});

// Chatwoot: PATCH /api/v1/accounts/{id}
const update = createRoute({
  method: "patch",
  path: "/",
  tags,
  summary: "Update the account (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(AccountUpdateSchema) },
  responses: {
    200: jsonContent(AccountSchema, "The updated account"),
    ...errorResponses,
  },
});

export const accountRoutes = createRouter<AccountEnv>()
  .openapi(show, (c) => c.json(presentAccount(c.var.account, c.env.SERVICE_VERSION ?? null), 200))
  .openapi(update, async (c) => {
    const row = await updateSettings(c.var.deps, c.var.account, c.req.valid("json"));
    return c.json(presentAccount(row, c.env.SERVICE_VERSION ?? null), 200);
  });
