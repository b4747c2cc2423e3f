import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context";
import { publicContact, publicInbox } from "../http/middleware/auth-contact";
import {
  publicContactLimit,
  publicIpLimit,
  publicMessageLimit,
} from "../http/middleware/rate-limit";
import { createRouter } from "../http/router";
import { contactEventPublicRoutes } from "../modules/contacts/routes.events.public";
import { contactPublicRoutes, contactSessionPublicRoutes } from "../modules/contacts/routes.public";
import { conversationPublicRoutes } from "../modules/conversations/routes.public";
import { inboxPublicRoutes } from "../modules/inboxes/routes.public";
import { liveContactRoutes, livePubsubRoutes } from "../modules/live/routes.public";
import { messagePublicRoutes } from "../modules/messages/routes.public";

const BASE = "/public/api/v1/inboxes/:inbox_identifier";
const CONTACT = `${BASE}/contacts/:contact_identifier`;

/**
 * Chatwoot clients post actions with no body, or a JSON content type and an empty body: both
 * read as `{}` (a malformed non-empty body is still a 400).
 */
const blankJsonIsEmpty = createMiddleware<AppEnv>(async (c, next) => {
  const type = c.req.header("content-type") ?? "";
  if (/^application\/(.+\+)?json/i.test(type) && (await c.req.text()).trim() === "") {
    // Hono parses JSON from the cached text, so the blank body is read as "{}".
    c.req.bodyCache.text = Promise.resolve("{}") as unknown as string;
  }
  await next();
});

/**
 * The public API: no token (a stray api_access_token is ignored); the inbox_identifier and the
 * contact's source_id are the credentials. Limits are checked before anything is looked up.
 */
export const publicApi = createRouter<AppEnv>();
// A `/*` pattern also matches the bare path, so each pattern is registered once.
publicApi.use(`${BASE}/*`, publicIpLimit, blankJsonIsEmpty, publicInbox);
publicApi.use(`${CONTACT}/*`, publicContactLimit, publicContact);
publicApi.post(`${CONTACT}/conversations/:conversation_id/messages`, publicMessageLimit);
publicApi.route(BASE, inboxPublicRoutes);
publicApi.route(BASE, contactPublicRoutes);
publicApi.route(BASE, contactSessionPublicRoutes);
publicApi.route(BASE, contactEventPublicRoutes);
publicApi.route(BASE, conversationPublicRoutes);
publicApi.route(BASE, messagePublicRoutes);
publicApi.route(BASE, liveContactRoutes);
publicApi.route("/public/api/v1", livePubsubRoutes);
