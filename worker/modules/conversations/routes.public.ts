import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ConversationRow } from "../../db/schema";
import { jsonOrForm } from "../../http/body";
import { errorResponses } from "../../http/errors";
import { contactScopeOf, type PublicContactEnv } from "../../http/middleware/auth-contact";
import { rateLimitResponses } from "../../http/middleware/rate-limit";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { ContactPublicParams } from "../contacts/schema.public";
import {
  PublicConversationCreateFormSchema,
  PublicConversationCreateSchema,
  PublicConversationParams,
  PublicConversationSchema,
  PublicEmptySchema,
  TypingSchema,
} from "./schema.public";
import {
  createOwnConversation,
  listOwnConversations,
  loadOwnConversation,
  markSeenByContact,
  resolveOwnConversation,
  setContactTyping,
} from "./service.public";
import { presentPublicConversations, presentPublicOne } from "./views.public";

const tags = ["Public API"];
const BASE = "/contacts/{contact_identifier}/conversations";
const ONE = `${BASE}/{conversation_id}`;

const viewOf = (c: Context<PublicContactEnv>) => ({ db: c.var.deps.db, origin: c.var.deps.origin });

const presentOne = (c: Context<PublicContactEnv>, row: ConversationRow) =>
  presentPublicOne(viewOf(c), row, c.var);

const formBody = { schema: PublicConversationCreateFormSchema };

// Chatwoot: POST /public/api/v1/inboxes/{i}/contacts/{c}/conversations
const create = createRoute({
  method: "post",
  path: BASE,
  tags,
  summary: "Create a conversation (E19); the body is optional",
  request: {
    params: ContactPublicParams,
    body: {
      required: false,
      content: {
        "application/json": { schema: PublicConversationCreateSchema },
        "application/x-www-form-urlencoded": formBody,
        "multipart/form-data": formBody,
      },
    },
  },
  responses: {
    200: jsonContent(PublicConversationSchema, "The conversation"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

// Chatwoot: GET /public/api/v1/inboxes/{i}/contacts/{c}/conversations
const list = createRoute({
  method: "get",
  path: BASE,
  tags,
  summary: "List the contact's conversations (its latest 100, oldest first)",
  request: { params: ContactPublicParams },
  responses: {
    200: jsonContent(PublicConversationSchema.array(), "The conversations"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

// Chatwoot: GET /public/api/v1/inboxes/{i}/contacts/{c}/conversations/{id}
const show = createRoute({
  method: "get",
  path: ONE,
  tags,
  summary: "Get one of the contact's conversations",
  request: { params: PublicConversationParams },
  responses: {
    200: jsonContent(PublicConversationSchema, "The conversation"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

// Chatwoot: POST /public/api/v1/inboxes/{i}/contacts/{c}/conversations/{id}/toggle_status
const resolve = createRoute({
  method: "post",
  path: `${ONE}/toggle_status`,
  tags,
  summary: "Resolve the conversation (a visitor cannot reopen; a new message does)",
  request: { params: PublicConversationParams },
  responses: {
    200: jsonContent(PublicConversationSchema, "The conversation"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

// Chatwoot: POST /public/api/v1/inboxes/{i}/contacts/{c}/conversations/{id}/toggle_typing
const typing = createRoute({
  method: "post",
  path: `${ONE}/toggle_typing`,
  tags,
  summary: "Tell the agents the visitor started or stopped typing",
  request: { params: PublicConversationParams, body: jsonBody(TypingSchema) },
  responses: {
    200: jsonContent(PublicEmptySchema, "Sent"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

// Chatwoot: POST /public/api/v1/inboxes/{i}/contacts/{c}/conversations/{id}/update_last_seen
const seen = createRoute({
  method: "post",
  path: `${ONE}/update_last_seen`,
  tags,
  summary: "Mark the conversation seen by the visitor now",
  request: { params: PublicConversationParams },
  responses: {
    200: jsonContent(PublicEmptySchema, "Recorded"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

export const conversationPublicRoutes = createRouter<PublicContactEnv>()
  .openapi(create, async (c) => {
    const body = jsonOrForm(c);
    const row = await createOwnConversation(contactScopeOf(c), body.custom_attributes);
    return c.json(await presentOne(c, row), 200);
  })
  .openapi(list, async (c) => {
    const rows = await listOwnConversations(contactScopeOf(c));
    return c.json(await presentPublicConversations(viewOf(c), rows, c.var), 200);
  })
  .openapi(show, async (c) => {
    const row = await loadOwnConversation(contactScopeOf(c), c.req.valid("param").conversation_id);
    return c.json(await presentOne(c, row), 200);
  })
  .openapi(resolve, async (c) => {
    const scope = contactScopeOf(c);
    const row = await loadOwnConversation(scope, c.req.valid("param").conversation_id);
    return c.json(await presentOne(c, await resolveOwnConversation(scope, row)), 200);
  })
  .openapi(typing, async (c) => {
    const scope = contactScopeOf(c);
    const row = await loadOwnConversation(scope, c.req.valid("param").conversation_id);
    await setContactTyping(scope, row, c.req.valid("json").typing_status === "on");
    return c.json({}, 200);
  })
  .openapi(seen, async (c) => {
    const scope = contactScopeOf(c);
    await markSeenByContact(
      scope,
      await loadOwnConversation(scope, c.req.valid("param").conversation_id),
    );
    return c.json({}, 200);
  });
