import { createRoute } from "@hono/zod-openapi";
import { errorResponses } from "../../http/errors";
import type { PublicContactEnv, PublicInboxEnv } from "../../http/middleware/auth-contact";
import { rateLimitResponses } from "../../http/middleware/rate-limit";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { InboxPublicParams } from "../inboxes/schema.public";
import { presentPublicContactSession } from "./presenter.public";
import {
  ContactPublicParams,
  PublicContactInputSchema,
  PublicContactSessionSchema,
} from "./schema.public";
import {
  createPublicContact,
  type PresentableSession,
  showPublicContact,
  updatePublicContact,
} from "./service.public";

const tags = ["Public API"];

const present = (s: PresentableSession) =>
  presentPublicContactSession(s.contact, s.labels, s.contactInbox);

// Chatwoot: POST /public/api/v1/inboxes/{inbox_identifier}/contacts
const create = createRoute({
  method: "post",
  path: "/contacts",
  tags,
  summary: "Create a contact (or join the contact its identifier names) in the inbox",
  request: { params: InboxPublicParams, body: jsonBody(PublicContactInputSchema, false) },
  responses: {
    200: jsonContent(PublicContactSessionSchema, "The contact, its source_id and pubsub_token"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

// Chatwoot: GET /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}
const show = createRoute({
  method: "get",
  path: "/contacts/{contact_identifier}",
  tags,
  summary: "Get the contact of a source_id",
  request: { params: ContactPublicParams },
  responses: {
    200: jsonContent(PublicContactSessionSchema, "The contact"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

// Chatwoot: PATCH /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}
const update = createRoute({
  method: "patch",
  path: "/contacts/{contact_identifier}",
  tags,
  summary: "Update the contact (custom_attributes are merged)",
  request: { params: ContactPublicParams, body: jsonBody(PublicContactInputSchema) },
  responses: {
    200: jsonContent(PublicContactSessionSchema, "The contact"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

/** Inbox level: creating a contact needs no contact_identifier yet. */
export const contactPublicRoutes = createRouter<PublicInboxEnv>().openapi(create, async (c) => {
  const { deps, inbox } = c.var;
  const session = await createPublicContact(deps, inbox, c.req.valid("json"), deps.origin);
  return c.json(present(session), 200);
});

/** Contact level: the source_id in the path is the caller. */
export const contactSessionPublicRoutes = createRouter<PublicContactEnv>()
  .openapi(show, async (c) => {
    const session = await showPublicContact(c.var.deps, c.var);
    return c.json(present(session), 200);
  })
  .openapi(update, async (c) => {
    const { deps, inbox } = c.var;
    const session = await updatePublicContact(deps, inbox, c.var, c.req.valid("json"), deps.origin);
    return c.json(present(session), 200);
  });
