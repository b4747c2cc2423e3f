import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { errorResponses } from "../../http/errors";
import {
  contactScopeOf,
  type PublicContactEnv,
  PubsubToken,
} from "../../http/middleware/auth-contact";
import { createRouter } from "../../http/router";
import { IdParam } from "../../http/schemas/ids";
import { ApiError } from "../../lib/errors";
import { roomFor } from "../conversation-room/stub";
import { loadOwnConversation } from "../conversations/service.public";
import { LiveQuery, upgradeResponse, wantsBatch } from "./schema";
import { answerUpgrade, assertUpgrade, contactIdentity, forward } from "./service";

const tags = ["Realtime"];

const ContactLiveParams = z.object({
  inbox_identifier: z.string().openapi({ param: { name: "inbox_identifier", in: "path" } }),
  contact_identifier: z.string().openapi({ param: { name: "contact_identifier", in: "path" } }),
  conversation_id: IdParam.openapi({
    param: { name: "conversation_id", in: "path" },
    type: "integer",
  }),
});

// Chatwoot: ActionCable RoomChannel (widget, pubsub_token)
const room = createRoute({
  method: "get",
  path: "/contacts/{contact_identifier}/conversations/{conversation_id}/live",
  tags,
  summary: "Open the visitor's live socket for one of its conversations",
  request: {
    params: ContactLiveParams,
    query: LiveQuery.extend({ pubsub_token: z.string().max(64).optional() }),
  },
  responses: { ...upgradeResponse, ...errorResponses },
});

/** The visitor joins the room of one of its conversations. */
async function joinRoom(
  c: Context<PublicContactEnv>,
  conversationId: number,
  query: { after?: number; batch?: string },
) {
  const conversation = await loadOwnConversation(contactScopeOf(c), conversationId);
  const stub = roomFor(c.env, c.var.account.id, conversation.id);
  const me = contactIdentity(c.var.contact, c.var.contactInbox.sourceId, c.var.deps.origin);
  const res = await stub.fetch(
    forward(c.req.raw, me, { after: query.after, conversation, batch: wantsBatch(query) }),
  );
  return answerUpgrade(c.req.raw, res);
}

/** Under /public/api/v1/inboxes/{inbox_identifier}: the contact middlewares already ran. */
export const liveContactRoutes = createRouter<PublicContactEnv>().openapi(room, async (c) => {
  assertUpgrade(c.req.raw);
  const query = c.req.valid("query");
  // When given, the pubsub_token must be this session's too.
  if (query.pubsub_token !== undefined && query.pubsub_token !== c.var.contactInbox.pubsubToken) {
    throw new ApiError("unauthorized", "Invalid pubsub_token");
  }
  return (await joinRoom(c, c.req.valid("param").conversation_id, query)) as never;
});

const byToken = createRoute({
  method: "get",
  path: "/live",
  tags,
  summary: "Open the visitor's live socket with its pubsub_token alone",
  request: {
    query: LiveQuery.extend({
      pubsub_token: PubsubToken,
      conversation_id: z.coerce.number().int().positive(),
    }),
  },
  responses: { ...upgradeResponse, ...errorResponses },
});

/** Under /public/api/v1: `pubsubContact` resolved the contact session the token names. */
export const livePubsubRoutes = createRouter<PublicContactEnv>().openapi(byToken, async (c) => {
  assertUpgrade(c.req.raw);
  const query = c.req.valid("query");
  return (await joinRoom(c, query.conversation_id, query)) as never;
});
