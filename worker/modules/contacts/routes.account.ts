import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ContactRow } from "../../db/schema";
import { jsonOrForm } from "../../http/body";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireAdmin, requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { AccountParams } from "../../http/schemas/ids";
import { presentContact, presentContactInbox, presentContactPage } from "./presenter";
import {
  ContactCreatedSchema,
  ContactFilterBody,
  ContactFilterQuery,
  ContactListQuery,
  ContactPageSchema,
  ContactParams,
  ContactSearchQuery,
  ContactShowSchema,
} from "./schema";
import {
  ContactCreateFormSchema,
  ContactCreateSchema,
  ContactUpdateFormSchema,
  ContactUpdateSchema,
} from "./schema.requests";
import { createContact, deleteContact, loadContact, updateContact } from "./service";
import { filterContacts, listContacts, searchContacts } from "./service.list";
import { contactInboxes } from "./service.related";

const tags = ["Contacts"];
const pageResponse = {
  200: jsonContent(ContactPageSchema, "A page of contacts"),
  ...errorResponses,
};

const bodyOf = <J extends z.ZodType, F extends z.ZodType>(json: J, form: F) => ({
  required: false,
  content: {
    "application/json": { schema: unwrapped("contact", json) },
    "multipart/form-data": { schema: form },
  },
});

// Chatwoot: GET /api/v1/accounts/{a}/contacts
const list = createRoute({
  method: "get",
  path: "/contacts",
  tags,
  summary: "List contacts (E1)",
  description:
    "15 per page. Only contacts with an email, a phone number or an identifier are listed " +
    "(Chatwoot's resolved contacts). Default order: last_activity_at descending, then id " +
    "descending; nulls sort last in either direction.",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, query: ContactListQuery },
  responses: pageResponse,
});

// Chatwoot: GET /api/v1/accounts/{a}/contacts/search
const search = createRoute({
  method: "get",
  path: "/contacts/search",
  tags,
  summary: "Search contacts by name, email, phone number (contains) or identifier (equal)",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, query: ContactSearchQuery },
  responses: pageResponse,
});

// Chatwoot: POST /api/v1/accounts/{a}/contacts/filter
const filter = createRoute({
  method: "post",
  path: "/contacts/filter",
  tags,
  summary: "Filter contacts (E2)",
  description:
    "Chatwoot's filter DSL: AND binds tighter than OR; custom attributes compare by their " +
    "display type. `page` may be in the query or the body.",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, query: ContactFilterQuery, body: jsonBody(ContactFilterBody) },
  responses: pageResponse,
});

// Chatwoot: POST /api/v1/accounts/{a}/contacts
const create = createRoute({
  method: "post",
  path: "/contacts",
  tags,
  summary: "Create a contact (E3)",
  description:
    "JSON, or multipart/form-data with an `avatar` image. Also creates the contact's " +
    "contact_inbox in `inbox_id` (source_id generated as a UUID unless given). Response: " +
    "`{id, payload: [contact], contact_inbox: {inbox, source_id}}`.",
  middleware: [requireMember()] as const,
  request: { params: AccountParams, body: bodyOf(ContactCreateSchema, ContactCreateFormSchema) },
  responses: { 200: jsonContent(ContactCreatedSchema, "The new contact"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/contacts/{id}
const show = createRoute({
  method: "get",
  path: "/contacts/{id}",
  tags,
  summary: "Get a contact",
  middleware: [requireMember()] as const,
  request: { params: ContactParams },
  responses: { 200: jsonContent(ContactShowSchema, "The contact"), ...errorResponses },
});

const change = (method: "patch" | "put") =>
  createRoute({
    method,
    path: "/contacts/{id}",
    tags,
    summary: "Update a contact (custom and additional attributes are merged)",
    middleware: [requireMember()] as const,
    request: { params: ContactParams, body: bodyOf(ContactUpdateSchema, ContactUpdateFormSchema) },
    responses: { 200: jsonContent(ContactShowSchema, "The contact"), ...errorResponses },
  });

// Chatwoot: PATCH /api/v1/accounts/{a}/contacts/{id}
const patch = change("patch");
// Chatwoot: PUT /api/v1/accounts/{a}/contacts/{id}
const put = change("put");

// Chatwoot: DELETE /api/v1/accounts/{a}/contacts/{id}
const remove = createRoute({
  method: "delete",
  path: "/contacts/{id}",
  tags,
  summary: "Delete a contact with its conversations (administrators)",
  middleware: [requireAdmin] as const,
  request: { params: ContactParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

const presentOne = async (c: Context<AccountEnv>, contact: ContactRow) =>
  presentContact(contact, {
    contactInboxes: await contactInboxes(c.var.deps, contact),
    origin: c.var.deps.origin,
  });

export const contactAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const q = c.req.valid("query");
    const labels = [q.labels ?? [], q["labels[]"] ?? []].flat();
    const page = await listContacts(c.var.deps, c.var.account.id, { ...q, labels });
    return c.json(presentContactPage(page, c.var.deps.origin), 200);
  })
  .openapi(search, async (c) => {
    const q = c.req.valid("query");
    const labels = [q.labels ?? [], q["labels[]"] ?? []].flat();
    const page = await searchContacts(c.var.deps, c.var.account.id, q.q, { ...q, labels });
    return c.json(presentContactPage(page, c.var.deps.origin), 200);
  })
  .openapi(filter, async (c) => {
    const { payload, page: bodyPage } = c.req.valid("json");
    const request = { page: c.req.valid("query").page ?? bodyPage };
    const page = await filterContacts(c.var.deps, c.var.account.id, payload, request);
    return c.json(presentContactPage(page, c.var.deps.origin), 200);
  })
  .openapi(create, async (c) => {
    const input = jsonOrForm(c, { required: ContactCreateSchema });
    const made = await createContact(c.var.deps, c.var.account.id, input, c.var.deps.origin);
    const view = { contactInboxes: [made.contactInbox], origin: c.var.deps.origin };
    const contact_inbox = presentContactInbox(made.contactInbox, c.var.deps.origin);
    return c.json(
      { id: made.contact.id, payload: [presentContact(made.contact, view)], contact_inbox },
      200,
    );
  })
  .openapi(show, async (c) => {
    const contact = await loadContact(c.var.deps, c.var.account.id, c.req.valid("param").id);
    return c.json({ payload: await presentOne(c, contact) }, 200);
  })
  .openapi(patch, async (c) => {
    const contact = await loadContact(c.var.deps, c.var.account.id, c.req.valid("param").id);
    const input = jsonOrForm(c);
    const row = await updateContact(c.var.deps, contact, input, c.var.deps.origin);
    return c.json({ payload: await presentOne(c, row) }, 200);
  })
  .openapi(put, async (c) => {
    const contact = await loadContact(c.var.deps, c.var.account.id, c.req.valid("param").id);
    const input = jsonOrForm(c);
    const row = await updateContact(c.var.deps, contact, input, c.var.deps.origin);
    return c.json({ payload: await presentOne(c, row) }, 200);
  })
  .openapi(remove, async (c) => {
    const contact = await loadContact(c.var.deps, c.var.account.id, c.req.valid("param").id);
    await deleteContact(c.var.deps, contact);
    return c.json({}, 200);
  });
