import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { presentContactInbox } from "./presenter";
import {
  ContactInboxListSchema,
  ContactInboxSchema,
  ContactLabelsSchema,
  ContactParams,
} from "./schema";
import { ContactInboxCreateBody, ContactLabelsBody } from "./schema.requests";
import { loadContact } from "./service";
import {
  addContactInbox,
  contactInboxes,
  contactLabels,
  setContactLabels,
} from "./service.related";

const tags = ["Contacts"];

// Chatwoot: GET /api/v1/accounts/{a}/contacts/{id}/labels
const labels = createRoute({
  method: "get",
  path: "/contacts/{id}/labels",
  tags,
  summary: "List a contact's labels",
  middleware: [requireMember()] as const,
  request: { params: ContactParams },
  responses: { 200: jsonContent(ContactLabelsSchema, "The labels"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/contacts/{id}/labels
const setLabels = createRoute({
  method: "post",
  path: "/contacts/{id}/labels",
  tags,
  summary: "Replace a contact's labels (free-form, stored lower-cased)",
  middleware: [requireMember()] as const,
  request: { params: ContactParams, body: jsonBody(ContactLabelsBody) },
  responses: { 200: jsonContent(ContactLabelsSchema, "The labels now"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/contacts/{id}/contact_inboxes
const inboxes = createRoute({
  method: "get",
  path: "/contacts/{id}/contact_inboxes",
  tags,
  summary: "List a contact's inboxes and source ids",
  middleware: [requireMember()] as const,
  request: { params: ContactParams },
  responses: { 200: jsonContent(ContactInboxListSchema, "The contact inboxes"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/contacts/{id}/contact_inboxes
const addInbox = createRoute({
  method: "post",
  path: "/contacts/{id}/contact_inboxes",
  tags,
  summary: "Add a contact to an inbox (source_id generated as a UUID unless given)",
  middleware: [requireMember()] as const,
  request: { params: ContactParams, body: jsonBody(ContactInboxCreateBody) },
  responses: { 200: jsonContent(ContactInboxSchema, "The contact inbox"), ...errorResponses },
});

const load = (c: Context<AccountEnv>, id: number) => loadContact(c.var.deps, c.var.account.id, id);

export const contactRelatedRoutes = createRouter<AccountEnv>()
  .openapi(labels, async (c) => {
    const contact = await load(c, c.req.valid("param").id);
    return c.json({ payload: await contactLabels(c.var.deps, contact) }, 200);
  })
  .openapi(setLabels, async (c) => {
    const contact = await load(c, c.req.valid("param").id);
    const titles = await setContactLabels(c.var.deps, contact, c.req.valid("json").labels);
    return c.json({ payload: titles }, 200);
  })
  .openapi(inboxes, async (c) => {
    const rows = await contactInboxes(c.var.deps, await load(c, c.req.valid("param").id));
    return c.json({ payload: rows.map((r) => presentContactInbox(r, c.var.deps.origin)) }, 200);
  })
  .openapi(addInbox, async (c) => {
    const contact = await load(c, c.req.valid("param").id);
    const row = await addContactInbox(c.var.deps, contact, c.req.valid("json"));
    return c.json(presentContactInbox(row, c.var.deps.origin), 200);
  });
