import { createRoute } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams, accountParams, IdParam } from "../../http/schemas/ids";
import { presentAgent } from "../agents/presenter";
import { InboxMembersBodySchema, InboxMembersSchema } from "./schema.members";
import {
  addMembers,
  listMembers,
  loadInbox,
  removeMembers,
  replaceMembers,
} from "./service.members";

const tags = ["Inbox members"];

const InboxIdParams = accountParams({
  inbox_id: IdParam.openapi({
    param: { name: "inbox_id", in: "path" },
    type: "integer",
    example: "1",
  }),
});

const change = (method: "post" | "patch", summary: string) =>
  createRoute({
    method,
    path: "/inbox_members",
    tags,
    summary,
    middleware: [requireAdmin] as const,
    request: { params: AccountParams, body: jsonBody(InboxMembersBodySchema) },
    responses: { 200: jsonContent(InboxMembersSchema, "The inbox's agents"), ...errorResponses },
  });

// Chatwoot: GET /api/v1/accounts/{a}/inbox_members/{inbox_id}
const list = createRoute({
  method: "get",
  path: "/inbox_members/{inbox_id}",
  tags,
  summary: "List the agents of an inbox (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: InboxIdParams },
  responses: { 200: jsonContent(InboxMembersSchema, "The inbox's agents"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/inbox_members
const add = change("post", "Add agents to an inbox (administrators)");

// Chatwoot: PATCH /api/v1/accounts/{a}/inbox_members
const replace = change(
  "patch",
  "Update agents in an inbox: the listed users replace the members (E8)",
);

// Chatwoot: DELETE /api/v1/accounts/{a}/inbox_members
const remove = createRoute({
  method: "delete",
  path: "/inbox_members",
  tags,
  summary: "Remove agents from an inbox (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, body: jsonBody(InboxMembersBodySchema) },
  responses: { 200: jsonContent(DeletedSchema, "Removed"), ...errorResponses },
});

export const inboxMemberAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const inbox = await loadInbox(c.var.deps, c.var.account.id, c.req.valid("param").inbox_id);
    const rows = await listMembers(c.var.deps, inbox);
    return c.json({ payload: rows.map(presentAgent) }, 200);
  })
  .openapi(add, async (c) => {
    const { inbox_id, user_ids } = c.req.valid("json");
    const inbox = await loadInbox(c.var.deps, c.var.account.id, inbox_id);
    const rows = await addMembers(c.var.deps, inbox, user_ids);
    return c.json({ payload: rows.map(presentAgent) }, 200);
  })
  .openapi(replace, async (c) => {
    const { inbox_id, user_ids } = c.req.valid("json");
    const inbox = await loadInbox(c.var.deps, c.var.account.id, inbox_id);
    const rows = await replaceMembers(c.var.deps, inbox, user_ids);
    return c.json({ payload: rows.map(presentAgent) }, 200);
  })
  .openapi(remove, async (c) => {
    const { inbox_id, user_ids } = c.req.valid("json");
    const inbox = await loadInbox(c.var.deps, c.var.account.id, inbox_id);
    await removeMembers(c.var.deps, inbox, user_ids);
    return c.json({}, 200);
  });
