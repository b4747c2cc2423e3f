import { createRoute, z } from "@hono/zod-openapi";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { presentContact, presentContactInbox } from "./presenter";
import { contactInboxesOf } from "./queries";
import { ContactInboxListSchema, ContactParams, ContactSchema } from "./schema";
import { loadContact } from "./service";
import { contactableInboxes, mergeContacts } from "./service.merge";

const tags = ["Contacts"];

const ContactId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const ContactMergeBody = z
  .object({
    base_contact_id: ContactId.openapi({ description: "The contact that stays", example: 1 }),
    mergee_contact_id: ContactId.openapi({
      description: "The contact merged into the base and then removed",
      example: 2,
    }),
  })
  .openapi("ContactMerge");

// Chatwoot: POST /api/v1/accounts/{a}/actions/contact_merge
const merge = createRoute({
  method: "post",
  path: "/actions/contact_merge",
  tags,
  summary: "Merge a contact into another (all or nothing); the mergee is removed",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, body: jsonBody(ContactMergeBody) },
  responses: { 200: jsonContent(ContactSchema, "The base contact, merged"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/contacts/{id}/contactable_inboxes
const contactable = createRoute({
  method: "get",
  path: "/contacts/{id}/contactable_inboxes",
  tags,
  summary: "The caller's inboxes that can reach the contact, with the source_id to use",
  middleware: [requireMember()] as const,
  request: { params: ContactParams },
  responses: { 200: jsonContent(ContactInboxListSchema, "Contactable inboxes"), ...errorResponses },
});

export const contactMergeRoutes = createRouter<AccountEnv>()
  .openapi(merge, async (c) => {
    const deps = c.var.deps;
    const base = await mergeContacts(deps, c.var.account.id, c.req.valid("json"));
    const view = {
      contactInboxes: await contactInboxesOf(deps.db, [base.id]),
      origin: deps.origin,
    };
    return c.json(presentContact(base, view), 200);
  })
  .openapi(contactable, async (c) => {
    const deps = c.var.deps;
    const contact = await loadContact(deps, c.var.account.id, c.req.valid("param").id);
    const rows = await contactableInboxes(deps, c.var, contact);
    const payload = rows.map(({ sourceId, inbox }) =>
      presentContactInbox({ contactId: contact.id, sourceId, inbox }, deps.origin),
    );
    return c.json({ payload }, 200);
  });
