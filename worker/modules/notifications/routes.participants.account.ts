import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { scopeOf } from "../../http/scope";
import { invalidField } from "../../lib/errors";
import { presentAgent } from "../agents/presenter";
import { AgentListSchema } from "../agents/schema";
import { loadConversationFor } from "../conversations/access";
import { ConversationParams } from "../conversations/schema";
import {
  addParticipantRows,
  listParticipants,
  removeParticipantRows,
  usersWithInboxAccess,
} from "./queries.participants";

const tags = ["Conversation Participants"];

const UserIdsBody = z
  .object({
    user_ids: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
      .max(100)
      // Optional in the schema so that a conversation the caller may not see is a 404 first.
      .optional()
      .openapi({ example: [1, 2] }),
  })
  .openapi("ParticipantUserIds");

const path = "/conversations/{conversation_id}/participants";
const responses = { 200: jsonContent(AgentListSchema, "The participants"), ...errorResponses };
const withIds = (method: "post" | "patch" | "delete", summary: string) =>
  createRoute({
    method,
    path,
    tags,
    summary,
    middleware: [requireMember()] as const,
    request: { params: ConversationParams, body: jsonBody(UserIdsBody) },
    responses,
  });

// Chatwoot: GET/POST/PATCH/DELETE /api/v1/accounts/{a}/conversations/{id}/participants
const show = createRoute({
  method: "get",
  path,
  tags,
  summary: "List a conversation's participants (agents following it)",
  middleware: [requireMember()] as const,
  request: { params: ConversationParams },
  responses,
});
const add = withIds("post", "Add participants");
const replace = withIds("patch", "Replace the participants");
const remove = withIds("delete", "Remove participants");

/** Chatwoot parity (ConversationParticipant#ensure_inbox_access): members of the inbox or admins. */
async function allowed(c: Context<AccountEnv>, inboxId: number, userIds: number[] | undefined) {
  const ids = [...new Set(required(userIds))];
  const ok = await usersWithInboxAccess(c.var.deps.db, c.var.account.id, inboxId, ids);
  const refused = ids.filter((id) => !ok.includes(id));
  if (refused.length > 0) {
    throw invalidField(
      "user_ids",
      `User must have access to conversation's inbox (${refused.join(", ")})`,
    );
  }
  return ids;
}

function required(userIds: number[] | undefined): number[] {
  if (userIds === undefined) {
    throw invalidField("user_ids", "is required");
  }
  return userIds;
}

async function answer(c: Context<AccountEnv>, accountId: number, conversationId: number) {
  const rows = await listParticipants(c.var.deps.db, accountId, conversationId);
  return c.json(rows.map(presentAgent), 200);
}

export const participantAccountRoutes = createRouter<AccountEnv>()
  .openapi(show, async (c) => {
    const conversation = await loadConversationFor(
      scopeOf(c),
      c.req.valid("param").conversation_id,
    );
    return answer(c, c.var.account.id, conversation.id);
  })
  .openapi(add, async (c) => {
    const conversation = await loadConversationFor(
      scopeOf(c),
      c.req.valid("param").conversation_id,
    );
    const ids = await allowed(c, conversation.inboxId, c.req.valid("json").user_ids);
    if (ids.length > 0) {
      await addParticipantRows(c.var.deps.db, c.var.account.id, conversation.id, ids);
    }
    return answer(c, c.var.account.id, conversation.id);
  })
  .openapi(replace, async (c) => {
    const conversation = await loadConversationFor(
      scopeOf(c),
      c.req.valid("param").conversation_id,
    );
    const ids = await allowed(c, conversation.inboxId, c.req.valid("json").user_ids);
    const db = c.var.deps.db;
    await db.batch([
      removeParticipantRows(db, conversation.id, ids, true),
      ...(ids.length > 0 ? [addParticipantRows(db, c.var.account.id, conversation.id, ids)] : []),
    ]);
    return answer(c, c.var.account.id, conversation.id);
  })
  .openapi(remove, async (c) => {
    const conversation = await loadConversationFor(
      scopeOf(c),
      c.req.valid("param").conversation_id,
    );
    const ids = [...new Set(required(c.req.valid("json").user_ids))];
    if (ids.length > 0) {
      await removeParticipantRows(c.var.deps.db, conversation.id, ids);
    }
    return answer(c, c.var.account.id, conversation.id);
  });
