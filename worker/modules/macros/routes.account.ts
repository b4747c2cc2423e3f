import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { clientIp } from "../../http/middleware/rate-limit";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { scopeOf } from "../../http/scope";
import { ApiError } from "../../lib/errors";
import { listAgents } from "../agents/queries";
import { executeMacro } from "./execute";
import { presentMacro } from "./presenter";
import {
  MacroCreateSchema,
  MacroEnvelope,
  MacroExecuteSchema,
  MacroExecutionSchema,
  MacroListSchema,
  MacroParams,
  MacroUpdateSchema,
} from "./schema";
import {
  createMacro,
  deleteMacro,
  listMacros,
  loadMacro,
  type MacroScope,
  updateMacro,
} from "./service";

const tags = ["Macros"];

/** Macros belong to users: bots are refused by requireMember before this. */
function macroScope(c: Context<AccountEnv>): MacroScope {
  const actor = c.var.actor;
  if (actor.kind !== "user") {
    throw new ApiError("not_authorized_for_bots");
  }
  return { ...scopeOf(c), userId: actor.user.id, who: { userId: actor.user.id, ip: clientIp(c) } };
}

/** The account's agents by user id, for created_by / updated_by (one query). */
async function agentsOf(c: Context<AccountEnv>) {
  const rows = await listAgents(c.var.deps.db, c.var.account.id);
  return new Map(rows.map((a) => [a.user.id, a]));
}

// Chatwoot: GET /api/v1/accounts/{a}/macros
const list = createRoute({
  method: "get",
  path: "/macros",
  tags,
  summary: "List the account's global macros and the caller's personal ones, oldest first",
  middleware: [requireMember()] as const,
  request: { params: AccountParams },
  responses: { 200: jsonContent(MacroListSchema, "The macros"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/macros
const create = createRoute({
  method: "post",
  path: "/macros",
  tags,
  summary: "Create a macro (an agent's is always personal)",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, body: jsonBody(unwrapped("macro", MacroCreateSchema)) },
  responses: { 200: jsonContent(MacroEnvelope, "The new macro"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/macros/{id}
const show = createRoute({
  method: "get",
  path: "/macros/{id}",
  tags,
  summary: "Get a global macro or one of the caller's own",
  middleware: [requireMember()] as const,
  request: { params: MacroParams },
  responses: { 200: jsonContent(MacroEnvelope, "The macro"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/macros/{id}
const update = createRoute({
  method: "patch",
  path: "/macros/{id}",
  tags,
  summary: "Update a macro (global: administrators; personal: its author; actions are replaced)",
  middleware: [requireMember()] as const,
  request: { params: MacroParams, body: jsonBody(unwrapped("macro", MacroUpdateSchema)) },
  responses: { 200: jsonContent(MacroEnvelope, "The updated macro"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/macros/{id}
const remove = createRoute({
  method: "delete",
  path: "/macros/{id}",
  tags,
  summary: "Delete a macro (global: administrators; personal: its author)",
  middleware: [requireMember()] as const,
  request: { params: MacroParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/macros/{id}/execute
const execute = createRoute({
  method: "post",
  path: "/macros/{id}/execute",
  tags,
  summary: "Run a macro's actions on conversations, as the caller, once each",
  middleware: [requireMember()] as const,
  request: { params: MacroParams, body: jsonBody(MacroExecuteSchema) },
  responses: {
    200: jsonContent(MacroExecutionSchema, "What happened to each conversation"),
    ...errorResponses,
  },
});

export const macroAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const [rows, agents] = await Promise.all([listMacros(macroScope(c)), agentsOf(c)]);
    return c.json({ payload: rows.map((r) => presentMacro(r, agents)) }, 200);
  })
  .openapi(create, async (c) => {
    const macro = await createMacro(macroScope(c), c.req.valid("json"));
    return c.json({ payload: presentMacro(macro, await agentsOf(c)) }, 200);
  })
  .openapi(show, async (c) => {
    const macro = await loadMacro(macroScope(c), c.req.valid("param").id, "use");
    return c.json({ payload: presentMacro(macro, await agentsOf(c)) }, 200);
  })
  .openapi(update, async (c) => {
    const scope = macroScope(c);
    const macro = await loadMacro(scope, c.req.valid("param").id, "change");
    const updated = await updateMacro(scope, macro, c.req.valid("json"));
    return c.json({ payload: presentMacro(updated, await agentsOf(c)) }, 200);
  })
  .openapi(remove, async (c) => {
    const scope = macroScope(c);
    await deleteMacro(scope, await loadMacro(scope, c.req.valid("param").id, "change"));
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  })
  .openapi(execute, async (c) => {
    const scope = macroScope(c);
    const macro = await loadMacro(scope, c.req.valid("param").id, "use");
    const payload = await executeMacro(scope, macro, c.req.valid("json").conversation_ids);
    return c.json({ payload }, 200);
  });
