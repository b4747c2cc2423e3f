import { createRoute, type z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { scopeOf } from "../../http/scope";
import { presentAgent } from "../agents/presenter";
import { presentTeam } from "../teams/presenter";
import { loadConversationFor } from "./access";
import { ConversationParams } from "./schema";
import {
  AssignmentResponseSchema,
  AssignmentSchema,
  CustomAttributesSchema,
  TogglePrioritySchema,
  ToggleStatusResponseSchema,
  ToggleStatusSchema,
} from "./schema.actions";
import {
  assign,
  isCallerInTeam,
  mute,
  replaceCustomAttributes,
  setPriority,
  toggleStatus,
  unmute,
} from "./service.actions";
import { markRead, markUnread } from "./service.seen";

const tags = ["Conversations"];
const empty = {} as z.infer<typeof DeletedSchema>;

const action = (path: string, summary: string, allowBots: boolean) =>
  createRoute({
    method: "post",
    path: `/conversations/{conversation_id}/${path}`,
    tags,
    summary,
    middleware: [requireMember({ allowBots })] as const,
    request: { params: ConversationParams },
    responses: { 200: jsonContent(DeletedSchema, "Done"), ...errorResponses },
  });

// Chatwoot: POST /api/v1/accounts/{a}/conversations/{display_id}/toggle_status
const toggleStatusRoute = createRoute({
  method: "post",
  path: "/conversations/{conversation_id}/toggle_status",
  tags,
  summary: "Set or toggle the status (open, resolved, pending, snoozed)",
  middleware: [requireMember({ allowBots: true })] as const,
  request: { params: ConversationParams, body: jsonBody(ToggleStatusSchema, false) },
  responses: { 200: jsonContent(ToggleStatusResponseSchema, "New status"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/conversations/{display_id}/toggle_priority
const togglePriorityRoute = createRoute({
  method: "post",
  path: "/conversations/{conversation_id}/toggle_priority",
  tags,
  summary: "Set the priority (urgent, high, medium, low or null)",
  middleware: [requireMember({ allowBots: true })] as const,
  request: { params: ConversationParams, body: jsonBody(TogglePrioritySchema, false) },
  responses: { 200: jsonContent(DeletedSchema, "Done"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/conversations/{display_id}/assignments
const assignRoute = createRoute({
  method: "post",
  path: "/conversations/{conversation_id}/assignments",
  tags,
  summary: "Assign an agent (assignee_id) or a team (team_id); null unassigns",
  middleware: [requireMember({ allowBots: true })] as const,
  request: { params: ConversationParams, body: jsonBody(AssignmentSchema, false) },
  responses: {
    200: jsonContent(AssignmentResponseSchema, "The agent or team, or null"),
    ...errorResponses,
  },
});

// Chatwoot: POST /api/v1/accounts/{a}/conversations/{display_id}/custom_attributes
const customAttributesRoute = createRoute({
  method: "post",
  path: "/conversations/{conversation_id}/custom_attributes",
  tags,
  summary: "Replace the conversation's custom attributes",
  middleware: [requireMember({ allowBots: true })] as const,
  request: { params: ConversationParams, body: jsonBody(CustomAttributesSchema) },
  responses: { 200: jsonContent(CustomAttributesSchema, "The attributes"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/conversations/{display_id}/mute
const muteRoute = action("mute", "Mute the conversation (and resolve it)", false);
// Chatwoot: POST /api/v1/accounts/{a}/conversations/{display_id}/unmute
const unmuteRoute = action("unmute", "Unmute the conversation", false);
// Chatwoot: POST /api/v1/accounts/{a}/conversations/{display_id}/update_last_seen
const seenRoute = action("update_last_seen", "Mark the conversation seen by the caller", false);
// Chatwoot: POST /api/v1/accounts/{a}/conversations/{display_id}/unread
const unreadRoute = action("unread", "Mark the latest incoming message unread", false);

export const conversationActionRoutes = createRouter<AccountEnv>()
  .openapi(toggleStatusRoute, async (c) => {
    const scope = scopeOf(c);
    const current = await loadConversationFor(scope, c.req.valid("param").conversation_id);
    const row = await toggleStatus(scope, current, c.req.valid("json") ?? {});
    const payload = {
      success: true,
      conversation_id: row.displayId,
      current_status: row.status,
      snoozed_until: row.snoozedUntil,
    };
    return c.json({ meta: {}, payload }, 200);
  })
  .openapi(togglePriorityRoute, async (c) => {
    const scope = scopeOf(c);
    const current = await loadConversationFor(scope, c.req.valid("param").conversation_id);
    await setPriority(scope, current, c.req.valid("json")?.priority ?? null);
    return c.json(empty, 200);
  })
  .openapi(assignRoute, async (c) => {
    const scope = scopeOf(c);
    const current = await loadConversationFor(scope, c.req.valid("param").conversation_id);
    const result = await assign(scope, current, c.req.valid("json") ?? {});
    if (result.kind === "agent" && result.agent) {
      return c.json(presentAgent(result.agent), 200);
    }
    if (result.kind === "team" && result.team) {
      return c.json(presentTeam(result.team, await isCallerInTeam(scope, result.team)), 200);
    }
    return c.json(null, 200);
  })
  .openapi(customAttributesRoute, async (c) => {
    const scope = scopeOf(c);
    const current = await loadConversationFor(scope, c.req.valid("param").conversation_id);
    const row = await replaceCustomAttributes(
      scope,
      current,
      c.req.valid("json").custom_attributes,
    );
    return c.json({ custom_attributes: row.customAttributes }, 200);
  })
  .openapi(muteRoute, async (c) => {
    const scope = scopeOf(c);
    await mute(scope, await loadConversationFor(scope, c.req.valid("param").conversation_id));
    return c.json(empty, 200);
  })
  .openapi(unmuteRoute, async (c) => {
    const scope = scopeOf(c);
    await unmute(scope, await loadConversationFor(scope, c.req.valid("param").conversation_id));
    return c.json(empty, 200);
  })
  .openapi(seenRoute, async (c) => {
    const scope = scopeOf(c);
    await markRead(scope, await loadConversationFor(scope, c.req.valid("param").conversation_id));
    return c.json(empty, 200);
  })
  .openapi(unreadRoute, async (c) => {
    const scope = scopeOf(c);
    await markUnread(scope, await loadConversationFor(scope, c.req.valid("param").conversation_id));
    return c.json(empty, 200);
  });
