import { createRoute, z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { PageNumber } from "../../http/schemas/pagination";
import { auditLogPage } from "./queries";
import { AUDIT_ACTIONS, type AuditAction } from "./service";

const PER_PAGE = 15;

const AuditLogSchema = z
  .object({
    id: z.number().int(),
    auditable_id: z.number().int().nullable(),
    auditable_type: z.string().openapi({ example: "Inbox" }),
    associated_id: z.number().int(),
    associated_type: z.literal("Account"),
    user_id: z.number().int().nullable(),
    user_type: z.literal("User").nullable(),
    username: z.string().nullable(),
    action: z.enum(AUDIT_ACTIONS),
    audited_changes: z.record(z.string(), z.unknown()),
    version: z.number().int(),
    comment: z.null(),
    remote_address: z.string().nullable(),
    created_at: z.number().int(),
  })
  .openapi("AuditLog");

const AuditLogPageSchema = z
  .object({
    per_page: z.number().int(),
    total_entries: z.number().int(),
    current_page: z.number().int(),
    audit_logs: z.array(AuditLogSchema),
  })
  .openapi("AuditLogPage");

// Chatwoot (Enterprise): GET /api/v1/accounts/{a}/audit_logs
const list = createRoute({
  method: "get",
  path: "/audit_logs",
  tags: ["Audit Logs"],
  summary: "Administrators' changes, newest first, 15 a page (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, query: z.object({ page: PageNumber }) },
  responses: { 200: jsonContent(AuditLogPageSchema, "A page"), ...errorResponses },
});

export const auditLogAccountRoutes = createRouter<AccountEnv>().openapi(list, async (c) => {
  const page = c.req.valid("query").page ?? 1;
  const found = await auditLogPage(
    c.var.deps.db,
    c.var.account.id,
    PER_PAGE,
    (page - 1) * PER_PAGE,
  );
  const audit_logs = found.rows.map(({ log, email }) => ({
    id: log.id,
    auditable_id: log.auditableId,
    auditable_type: log.auditableType,
    associated_id: log.accountId,
    associated_type: "Account" as const,
    user_id: log.userId,
    user_type: log.userId === null ? null : ("User" as const),
    username: email ?? null,
    action: log.action as AuditAction,
    audited_changes: log.auditedChanges,
    version: 1,
    comment: null,
    remote_address: log.remoteAddress,
    created_at: log.createdAt,
  }));
  return c.json(
    { per_page: PER_PAGE, total_entries: found.total, current_page: page, audit_logs },
    200,
  );
});
