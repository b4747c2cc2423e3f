import { blankJsonIsEmpty } from "../http/body";
import type { AppEnv } from "../http/context";
import { publicContact, publicInbox, pubsubContact } from "../http/middleware/auth-contact";
import {
  publicContactLimit,
  publicIpLimit,
  publicMessageLimit,
} from "../http/middleware/rate-limit";
import { createRouter } from "../http/router";
import { contactEventPublicRoutes } from "../modules/contacts/routes.events.public";
import { contactPublicRoutes, contactSessionPublicRoutes } from "../modules/contacts/routes.public";
import { conversationPublicRoutes } from "../modules/conversations/routes.public";
import { csatPageRoutes, csatPublicRoutes } from "../modules/csat/routes.public";
import { inboxPublicRoutes } from "../modules/inboxes/routes.public";
import { liveContactRoutes, livePubsubRoutes } from "../modules/live/routes.public";
import { messagePublicRoutes } from "../modules/messages/routes.public";

const ROOT = "/public/api/v1";
const BASE = `${ROOT}/inboxes/:inbox_identifier`;
const CONTACT = `${BASE}/contacts/:contact_identifier`;

/**
 * The public API: no token (a stray api_access_token is ignored); the inbox_identifier and the
 * contact's source_id are the credentials. Limits are checked before anything is looked up.
 */
export const publicApi = createRouter<AppEnv>();
// A `/*` pattern also matches the bare path, so each pattern is registered once.
publicApi.use(`${BASE}/*`, publicIpLimit, blankJsonIsEmpty, publicInbox);
publicApi.use(`${CONTACT}/*`, publicContactLimit, publicContact);
publicApi.post(`${CONTACT}/conversations/:conversation_id/messages`, publicMessageLimit);
// The live socket opened with a pubsub_token alone: the token names the contact session.
publicApi.get(`${ROOT}/live`, publicIpLimit, pubsubContact);
publicApi.route(BASE, inboxPublicRoutes);
publicApi.route(BASE, contactPublicRoutes);
publicApi.route(BASE, contactSessionPublicRoutes);
publicApi.route(BASE, contactEventPublicRoutes);
publicApi.route(BASE, conversationPublicRoutes);
publicApi.route(BASE, messagePublicRoutes);
publicApi.route(BASE, liveContactRoutes);
publicApi.route(ROOT, livePubsubRoutes);
// The CSAT survey's link (Chatwoot's): the conversation's uuid is the credential.
publicApi.use(`${ROOT}/csat_survey/*`, publicIpLimit);
publicApi.use("/survey/responses/*", publicIpLimit);
publicApi.route(ROOT, csatPublicRoutes);
publicApi.route("/", csatPageRoutes);
