import { createRoute, type z } from "@hono/zod-openapi";
import type { PlatformEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { presentAccountUser } from "./presenter";
import {
  AccountUserListSchema,
  AccountUserRemoveSchema,
  AccountUserSchema,
  AccountUserUpsertSchema,
} from "./schema";
import { listMembers, removeMember, upsertMember } from "./service";

const tags = ["Platform: account users"];
const path = "/accounts/{account_id}/account_users";

// Chatwoot: GET /platform/api/v1/accounts/{account_id}/account_users
const list = createRoute({
  method: "get",
  path,
  tags,
  summary: "List the account's users and their roles",
  request: { params: AccountParams },
  responses: { 200: jsonContent(AccountUserListSchema, "Account users"), ...errorResponses },
});

// Chatwoot: POST /platform/api/v1/accounts/{account_id}/account_users
const upsert = createRoute({
  method: "post",
  path,
  tags,
  summary: "Add a user to the account, or change their role",
  description: "Idempotent: an existing membership only gets the new role.",
  request: { params: AccountParams, body: jsonBody(AccountUserUpsertSchema) },
  responses: { 200: jsonContent(AccountUserSchema, "The account user"), ...errorResponses },
});

// Chatwoot: DELETE /platform/api/v1/accounts/{account_id}/account_users
const remove = createRoute({
  method: "delete",
  path,
  tags,
  summary: "Remove a user from the account (and its inboxes and teams)",
  request: { params: AccountParams, body: jsonBody(AccountUserRemoveSchema) },
  responses: { 200: jsonContent(DeletedSchema, "Removed"), ...errorResponses },
});

export const accountUserPlatformRoutes = createRouter<PlatformEnv>()
  .openapi(list, async (c) => {
    const { account_id } = c.req.valid("param");
    const rows = await listMembers(c.var.deps, c.var.platformAppId, account_id);
    return c.json(rows.map(presentAccountUser), 200);
  })
  .openapi(upsert, async (c) => {
    const { account_id } = c.req.valid("param");
    const row = await upsertMember(
      c.var.deps,
      c.var.platformAppId,
      account_id,
      c.req.valid("json"),
    );
    return c.json(presentAccountUser(row), 200);
  })
  .openapi(remove, async (c) => {
    const { account_id } = c.req.valid("param");
    const { user_id } = c.req.valid("json");
    await removeMember(c.var.deps, c.var.platformAppId, account_id, user_id);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
