import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AccountEnv } from "../../http/context";
import { errorResponses } from "../../http/errors";
import { requireMember } from "../../http/middleware/require-role";
import { createRouter } from "../../http/router";
import { DeletedSchema, jsonBody, jsonContent, unwrapped } from "../../http/schemas/envelopes";
import { callerUserId } from "../access-tokens/service";
import { presentContactNote } from "./presenter";
import { listNotes } from "./queries";
import {
  ContactNoteBody,
  ContactNoteListSchema,
  ContactNoteParams,
  ContactNoteSchema,
  ContactNotesParams,
} from "./schema";
import {
  changeNote,
  checkContact,
  createNote,
  loadNote,
  type NoteScope,
  removeNote,
} from "./service";

const tags = ["Contact Notes"];

const scope = (c: Context<AccountEnv>, contactId: number): NoteScope => ({
  deps: c.var.deps,
  accountId: c.var.account.id,
  userId: callerUserId(c.var.actor),
  contactId,
});

// Chatwoot: GET /api/v1/accounts/{a}/contacts/{contact_id}/notes
const list = createRoute({
  method: "get",
  path: "/contacts/{contact_id}/notes",
  tags,
  summary: "List a contact's notes, newest first",
  middleware: [requireMember()] as const,
  request: { params: ContactNotesParams },
  responses: { 200: jsonContent(ContactNoteListSchema, "The notes"), ...errorResponses },
});

// Chatwoot: GET /api/v1/accounts/{a}/contacts/{contact_id}/notes/{id}
const show = createRoute({
  method: "get",
  path: "/contacts/{contact_id}/notes/{id}",
  tags,
  summary: "Get a note",
  middleware: [requireMember()] as const,
  request: { params: ContactNoteParams },
  responses: { 200: jsonContent(ContactNoteSchema, "The note"), ...errorResponses },
});

// Chatwoot: POST /api/v1/accounts/{a}/contacts/{contact_id}/notes
const create = createRoute({
  method: "post",
  path: "/contacts/{contact_id}/notes",
  tags,
  summary: "Add a note to a contact (the caller is its author)",
  middleware: [requireMember()] as const,
  request: { params: ContactNotesParams, body: jsonBody(unwrapped("note", ContactNoteBody)) },
  responses: { 200: jsonContent(ContactNoteSchema, "The new note"), ...errorResponses },
});

// Chatwoot: PATCH /api/v1/accounts/{a}/contacts/{contact_id}/notes/{id}
const update = createRoute({
  method: "patch",
  path: "/contacts/{contact_id}/notes/{id}",
  tags,
  summary: "Change a note",
  middleware: [requireMember()] as const,
  request: { params: ContactNoteParams, body: jsonBody(unwrapped("note", ContactNoteBody)) },
  responses: { 200: jsonContent(ContactNoteSchema, "The note"), ...errorResponses },
});

// Chatwoot: DELETE /api/v1/accounts/{a}/contacts/{contact_id}/notes/{id}
const remove = createRoute({
  method: "delete",
  path: "/contacts/{contact_id}/notes/{id}",
  tags,
  summary: "Delete a note",
  middleware: [requireMember()] as const,
  request: { params: ContactNoteParams },
  responses: { 200: jsonContent(DeletedSchema, "Deleted"), ...errorResponses },
});

export const contactNoteAccountRoutes = createRouter<AccountEnv>()
  .openapi(list, async (c) => {
    const s = scope(c, c.req.valid("param").contact_id);
    await checkContact(s);
    const rows = await listNotes(s.deps.db, s.accountId, s.contactId);
    return c.json(rows.map(presentContactNote), 200);
  })
  .openapi(show, async (c) => {
    const { contact_id, id } = c.req.valid("param");
    return c.json(presentContactNote(await loadNote(scope(c, contact_id), id)), 200);
  })
  .openapi(create, async (c) => {
    const s = scope(c, c.req.valid("param").contact_id);
    return c.json(presentContactNote(await createNote(s, c.req.valid("json").content)), 200);
  })
  .openapi(update, async (c) => {
    const { contact_id, id } = c.req.valid("param");
    const row = await changeNote(scope(c, contact_id), id, c.req.valid("json").content);
    return c.json(presentContactNote(row), 200);
  })
  .openapi(remove, async (c) => {
    const { contact_id, id } = c.req.valid("param");
    await removeNote(scope(c, contact_id), id);
    return c.json({} as z.infer<typeof DeletedSchema>, 200);
  });
