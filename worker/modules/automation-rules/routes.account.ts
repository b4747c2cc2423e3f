import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { PageQuery } from "../../http/schemas/pagination";
import { presentRule } from "./presenter";
import {
  RuleCreateSchema,
  RuleEnvelope,
  RuleListSchema,
  RuleParams,
  RuleUpdateSchema,
} from "./schema";
import { cloneRule, createRule, deleteRule, listRules, loadRule, updateRule } from "./service";

const tags = ["Automation rules"];

// Chatwoot: GET /api/v1/accounts/{a}/automation_rules
const list = createRoute({
  method: "get",
  path: "/automation_rules",
  tags,
  summary: "List automation rules (administrators; 25 per page, newest first)",
  middleware: [requireAdmin] as const,
  request: { params: AccountParams, query: PageQuery },
  responses: { 200: jsonContent(RuleListSchema, "One page of rules"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/automation_rules
const create = createRoute({
  method: "post",
  path: "/automation_rules",
  tags,
  summary: "Create an automation rule (administrators)",
  middleware: [requireAdmin] as const,
  request: {
    params: AccountParams,
    body: jsonBody(unwrapped("automation_rule", RuleCreateSchema)),
  },
  responses: { 200: jsonContent(RuleEnvelope, "The new rule"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/automation_rules/{id}
const show = createRoute({
  method: "get",
  path: "/automation_rules/{id}",
  tags,
  summary: "Get an automation rule (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: RuleParams },
  responses: { 200: jsonContent(RuleEnvelope, "The rule"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/automation_rules/{id}
const update = createRoute({
  method: "patch",
  path: "/automation_rules/{id}",
  tags,
  summary: "Update an automation rule (administrators; conditions and actions are replaced)",
  middleware: [requireAdmin] as const,
  request: {
    params: RuleParams,
    body: jsonBody(unwrapped("automation_rule", RuleUpdateSchema)),
  },
  responses: { 200: jsonContent(RuleEnvelope, "The updated rule"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/automation_rules/{id}
const remove = createRoute({
  method: "delete",
  path: "/automation_rules/{id}",
  tags,
  summary: "Delete an automation rule (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: RuleParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/automation_rules/{id}/clone
const clone = createRoute({
  method: "post",
  path: "/automation_rules/{id}/clone",
  tags,
  summary: "Copy an automation rule (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: RuleParams },
  responses: { 200: jsonContent(RuleEnvelope, "The copy"), ...errorResponses },
});

export const automationRuleAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const { page } = c.req.valid("query");
    const { rows, count } = await listRules(c.var.deps, c.var.account.id, page);
    return c.json({ meta: { count, current_page: page }, payload: rows.map(presentRule) }, 200);
  })
  .openapi(create, async (c) => {
    const rule = await createRule(c.var.deps, c.var.account.id, c.req.valid("json"));
    return c.json({ payload: presentRule(rule) }, 200);
  })
  .openapi(show, async (c) => {
    const rule = await loadRule(c.var.deps, c.var.account.id, c.req.valid("param").id);
    return c.json({ payload: presentRule(rule) }, 200);
  })
  .openapi(update, async (c) => {
    const rule = await loadRule(c.var.deps, c.var.account.id, c.req.valid("param").id);
    const updated = await updateRule(c.var.deps, rule, c.req.valid("json"));
    return c.json({ payload: presentRule(updated) }, 200);
  })
  .openapi(remove, async (c) => {
    const rule = await loadRule(c.var.deps, c.var.account.id, c.req.valid("param").id);
    await deleteRule(c.var.deps, rule);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  })
  .openapi(clone, async (c) => {
    const rule = await loadRule(c.var.deps, c.var.account.id, c.req.valid("param").id);
    return c.json({ payload: presentRule(await cloneRule(c.var.deps, rule)) }, 200);
  });
