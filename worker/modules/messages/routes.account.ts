import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { jsonOrForm, MULTIPART_ONLY } from "../../http/body";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonContent } from "../../http/schemas/envelopes";
import { accountParams, IdParam } from "../../http/schemas/ids";
import { loadConversationFor } from "../conversations/access";
import { MessageSchema } from "./schema";
import {
  createInputOf,
  MessageCreateFormSchema,
  MessageCreateJsonSchema,
  MessageListQuery,
  MessageUpdateSchema,
} from "./schema.requests";
import { contextOf, createMessage } from "./service";
import { deleteMessage, updateMessage } from "./service.changes";
import { listMessages, MessageListSchema, presentOne } from "./service.list";

const tags = ["Messages"];
const ConversationParams = accountParams({ conversation_id: IdParam });
const MessageParams = accountParams({ conversation_id: IdParam, message_id: IdParam });
const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, "must be 1-255 visible ASCII characters")
    .optional()
    .openapi({
      description:
        "Retries with the same key by the same sender return the first message instead of a new one (without a key, echo_id does the same)",
    }),
});

const scopeOf = (c: Context<AccountEnv>) => ({
  deps: c.var.deps,
  account: c.var.account,
  actor: c.var.actor,
  role: c.var.role,
  origin: c.var.deps.origin,
});

// Chatwoot: GET /api/v1/accounts/{a}/conversations/{id}/messages
const list = createRoute({
  method: "get",
  path: "/conversations/{conversation_id}/messages",
  tags,
  summary: "List messages: the latest 20, or 20 before / up to 100 after a message id",
  middleware: [requireMember()] as const,
  request: { params: ConversationParams, query: MessageListQuery },
  responses: { 200: jsonContent(MessageListSchema, "Messages, oldest first"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/conversations/{id}/messages
const create = createRoute({
  method: "post",
  path: "/conversations/{conversation_id}/messages",
  tags,
  summary: "Send a message or private note (JSON, or multipart with attachments)",
  middleware: [requireMember({ allowBots: true })] as const,
  request: {
    params: ConversationParams,
    headers: IdempotencyHeaders,
    body: {
      required: false,
      content: {
        "application/json": { schema: MessageCreateJsonSchema },
        "multipart/form-data": { schema: MessageCreateFormSchema },
      },
    },
  },
  responses: { 200: jsonContent(MessageSchema, "The message"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/conversations/{id}/messages/{message_id}
const update = createRoute({
  method: "patch",
  path: "/conversations/{conversation_id}/messages/{message_id}",
  tags,
  summary: "Edit a message, or report its delivery status (API inboxes)",
  middleware: [requireMember()] as const,
  request: {
    params: MessageParams,
    body: { required: true, content: { "application/json": { schema: MessageUpdateSchema } } },
  },
  responses: { 200: jsonContent(MessageSchema, "The message"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/conversations/{id}/messages/{message_id}
const remove = createRoute({
  method: "delete",
  path: "/conversations/{conversation_id}/messages/{message_id}",
  tags,
  summary: "Delete a message (its content is replaced, attachments removed)",
  middleware: [requireMember()] as const,
  request: { params: MessageParams },
  responses: { 200: jsonContent(MessageSchema, "The deleted message"), ...errorResponses },
});

export const messageAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const scope = scopeOf(c);
    const conversation = await loadConversationFor(scope, c.req.valid("param").conversation_id);
    return c.json(await listMessages(scope, conversation, c.req.valid("query")), 200);
  })
  .openapi(create, async (c) => {
    const scope = scopeOf(c);
    const conversation = await loadConversationFor(scope, c.req.valid("param").conversation_id);
    const body = jsonOrForm(c, { form: MULTIPART_ONLY });
    // Answered at the room's commit: this API's reads of the conversation merge its tail.
    const { message, duplicate, presented } = await createMessage(
      scope,
      conversation,
      { ...createInputOf(body), idempotencyKey: c.req.valid("header")["idempotency-key"] },
      "commit",
    );
    c.header("Idempotent-Replayed", String(duplicate));
    const json =
      presented ??
      (await presentOne(scope, conversation, message, await contextOf(scope, conversation)));
    return c.json(json, 200);
  })
  .openapi(update, async (c) => {
    const scope = scopeOf(c);
    const { conversation_id, message_id } = c.req.valid("param");
    const conversation = await loadConversationFor(scope, conversation_id);
    const row = await updateMessage(scope, conversation, message_id, c.req.valid("json"));
    return c.json(
      await presentOne(scope, conversation, row, await contextOf(scope, conversation)),
      200,
    );
  })
  .openapi(remove, async (c) => {
    const scope = scopeOf(c);
    const { conversation_id, message_id } = c.req.valid("param");
    const conversation = await loadConversationFor(scope, conversation_id);
    const row = await deleteMessage(scope, conversation, message_id);
    return c.json(
      await presentOne(scope, conversation, row, await contextOf(scope, conversation)),
      200,
    );
  });
