import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ConversationRow, MessageRow } from "../../db/schema";
import { jsonOrForm, MULTIPART_ONLY } from "../../http/body";
import { errorResponses } from "../../http/errors";
import { contactScopeOf, type PublicContactEnv } from "../../http/middleware/auth-contact";
import { rateLimitResponses } from "../../http/middleware/rate-limit";
import { createRouter } from "../../http/router";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";
import { jsonBody, jsonContent } from "../../http/schemas/envelopes";
import { IdParam } from "../../http/schemas/ids";
import { updatePublicContact } from "../contacts/service.public";
import { PublicConversationParams } from "../conversations/schema.public";
import {
  listOwnMessages,
  loadOwnConversation,
  sendAsContact,
  submitValues,
} from "../conversations/service.public";
import { presentPublicMessages } from "../conversations/views.public";
import { PublicMessageSchema } from "./schema";
import {
  multipartWithAttachments,
  PUBLIC_MESSAGE_FIELDS,
  PublicMessageCreateSchema,
} from "./schema.requests";

const tags = ["Public API"];
const BASE = "/contacts/{contact_identifier}/conversations/{conversation_id}/messages";

const PublicMessageCreateFormSchema = multipartWithAttachments(PUBLIC_MESSAGE_FIELDS).openapi(
  "PublicMessageCreateMultipart",
);

type PublicMessageCreateBody = z.infer<typeof PublicMessageCreateSchema> & { attachments?: File[] };

const SubmittedValue = JsonObjectSchema;

const PublicMessageUpdateSchema = z
  .object({
    submitted_values: z.union([z.array(SubmittedValue).max(100), SubmittedValue]).openapi({
      description:
        "Form or input_select replies ([{name, title, value}]), an input_email's address " +
        '([{name: "email", value}] or {email}; it becomes the contact\'s email too), or ' +
        "{csat_survey_response: {rating, feedback_message}}",
    }),
  })
  .openapi("PublicMessageUpdate");

const ListQuery = z.object({
  before: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .openapi({ description: "A message id: the 20 messages before it" }),
});

const MessageParams = PublicConversationParams.extend({
  message_id: IdParam.openapi({ param: { name: "message_id", in: "path" }, type: "integer" }),
});

// Chatwoot: GET /public/api/v1/inboxes/{i}/contacts/{c}/conversations/{id}/messages
const list = createRoute({
  method: "get",
  path: BASE,
  tags,
  summary: "List messages (E20): the latest 20, or 20 before a message id; private notes never",
  request: { params: PublicConversationParams, query: ListQuery },
  responses: {
    200: jsonContent(PublicMessageSchema.array(), "Messages, oldest first"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

// Chatwoot: POST /public/api/v1/inboxes/{i}/contacts/{c}/conversations/{id}/messages
const create = createRoute({
  method: "post",
  path: BASE,
  tags,
  summary: "Send a message as the contact (JSON, or multipart with attachments)",
  request: {
    params: PublicConversationParams,
    body: {
      required: true,
      content: {
        "application/json": { schema: PublicMessageCreateSchema },
        "multipart/form-data": { schema: PublicMessageCreateFormSchema },
      },
    },
  },
  responses: {
    200: jsonContent(PublicMessageSchema, "The message"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

// Chatwoot: PATCH /public/api/v1/inboxes/{i}/contacts/{c}/conversations/{id}/messages/{mid}
const update = createRoute({
  method: "patch",
  path: `${BASE}/{message_id}`,
  tags,
  summary: "Answer a bot or agent prompt (stored in content_attributes.submitted_values)",
  request: { params: MessageParams, body: jsonBody(PublicMessageUpdateSchema) },
  responses: {
    200: jsonContent(PublicMessageSchema, "The message"),
    ...errorResponses,
    ...rateLimitResponses,
  },
});

const present = async (c: Context<PublicContactEnv>, row: ConversationRow, rows: MessageRow[]) =>
  presentPublicMessages(
    { db: c.var.deps.db, origin: c.var.deps.origin },
    rows,
    new Map([[row.id, row.displayId]]),
  );

export const messagePublicRoutes = createRouter<PublicContactEnv>()
  .openapi(list, async (c) => {
    const scope = contactScopeOf(c);
    const row = await loadOwnConversation(scope, c.req.valid("param").conversation_id);
    const rows = await listOwnMessages(scope, row, c.req.valid("query").before);
    return c.json(await present(c, row, rows), 200);
  })
  .openapi(create, async (c) => {
    const scope = contactScopeOf(c);
    const row = await loadOwnConversation(scope, c.req.valid("param").conversation_id);
    // The form's validated type loses `attachments` (zod preprocess); it is there at run time.
    const body: PublicMessageCreateBody = jsonOrForm(c, { form: MULTIPART_ONLY });
    const { message, presentedPublic } = await sendAsContact(scope, row, {
      content: body.content,
      echoId: body.echo_id,
      files: body.attachments ?? [],
    });
    // The room's own view of the new message; a replay (same echo_id) is presented afresh.
    const one = presentedPublic ?? (await present(c, row, [message]))[0];
    return c.json(one as z.infer<typeof PublicMessageSchema>, 200);
  })
  .openapi(update, async (c) => {
    const scope = contactScopeOf(c);
    const { conversation_id, message_id } = c.req.valid("param");
    const row = await loadOwnConversation(scope, conversation_id);
    const { message, email } = await submitValues(
      scope,
      row,
      message_id,
      c.req.valid("json").submitted_values,
    );
    if (email !== null) {
      // Chatwoot's widget endpoint: an input_email's answer is the contact's email too.
      const { deps, inbox } = c.var;
      await updatePublicContact(deps, inbox, c.var, { email }, deps.origin);
    }
    const [one] = await present(c, row, [message]);
    return c.json(one as z.infer<typeof PublicMessageSchema>, 200);
  });
