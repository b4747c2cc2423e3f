import { createRoute, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import {
  contactScopeOf,
  type PublicContactEnv,
  resolvePublicInbox,
} from "../../http/middleware/auth-contact";
import { publicIpLimit } from "../../http/middleware/rate-limit";
import { createRouter } from "../../http/router";
import { IdParam } from "../../http/schemas/ids";
import { ApiError } from "../../lib/errors";
import type { SocketIdentity } from "../../realtime/protocol";
import { findContactSessionByPubsubToken } from "../contacts/queries";
import { loadOwnConversation } from "../conversations/service.public";
import { findInboxById } from "../inboxes/queries.public";
import { roomFor } from "../messages/room";
import { LiveQuery, upgradeResponse } from "./schema";
import { assertUpgrade, forward } from "./service";

const tags = ["Realtime"];

const contactIdentity = (contact: { id: number; name: string }): SocketIdentity => ({
  role: "contact",
  kind: "contact",
  id: contact.id,
  name: contact.name,
});

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

/** Under /public/api/v1/inboxes/{inbox_identifier}: the contact middlewares already ran. */
export const liveContactRoutes = createRouter<PublicContactEnv>().openapi(room, async (c) => {
  assertUpgrade(c.req.raw);
  const { after, pubsub_token } = c.req.valid("query");
  // When given, the pubsub_token must be this session's too.
  if (pubsub_token !== undefined && pubsub_token !== c.var.contactInbox.pubsubToken) {
    throw new ApiError("unauthorized", "Invalid pubsub_token");
  }
  const conversation = await loadOwnConversation(
    contactScopeOf(c),
    c.req.valid("param").conversation_id,
  );
  const stub = roomFor(c.env, c.var.account.id, conversation.id);
  return stub.fetch(
    forward(c.req.raw, contactIdentity(c.var.contact), after, conversation),
  ) as never;
});

const byToken = createRoute({
  method: "get",
  path: "/live",
  tags,
  summary: "Open the visitor's live socket with its pubsub_token alone",
  middleware: [publicIpLimit] as const,
  request: {
    query: LiveQuery.extend({
      pubsub_token: z.string().min(1).max(64),
      conversation_id: z.coerce.number().int().positive(),
    }),
  },
  responses: { ...upgradeResponse, ...errorResponses },
});

/** Under /public/api/v1: the pubsub_token names the contact session (and so inbox and account). */
export const livePubsubRoutes = createRouter<AppEnv>().openapi(byToken, async (c) => {
  assertUpgrade(c.req.raw);
  const { pubsub_token, conversation_id, after } = c.req.valid("query");
  const { db } = c.var.deps;
  const session = await findContactSessionByPubsubToken(db, pubsub_token);
  const inbox = session ? await findInboxById(db, session.contactInbox.inboxId) : undefined;
  if (!session || !inbox) {
    throw new ApiError("unauthorized", "Invalid pubsub_token");
  }
  const { account } = await resolvePublicInbox(db, inbox.inboxIdentifier);
  const actor = {
    kind: "contact" as const,
    contact: session.contact,
    contactInbox: session.contactInbox,
  };
  const scope = {
    deps: c.var.deps,
    account,
    actor,
    role: "contact" as const,
    origin: new URL(c.req.url).origin,
  };
  const conversation = await loadOwnConversation(scope, conversation_id);
  const stub = roomFor(c.env, account.id, conversation.id);
  return stub.fetch(
    forward(c.req.raw, contactIdentity(session.contact), after, conversation),
  ) as never;
});
