import { z } from "@hono/zod-openapi";
import { MESSAGE_STATUSES } from "../../db/schema";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";

/** Chatwoot's content types; forms, cards and inputs are rendered by the widget. */
export const CONTENT_TYPES = [
  "text",
  "input_text",
  "input_textarea",
  "input_email",
  "input_select",
  "cards",
  "form",
  "article",
  "incoming_email",
  "input_csat",
  "integrations",
  "sticker",
] as const;

/** Chatwoot caps message content at 150,000 characters. */
export const MAX_CONTENT_LENGTH = 150_000;
export const MAX_ATTACHMENTS = 15;

const jsonObjectString = z.preprocess((value) => {
  if (typeof value !== "string") {
    return value;
  }
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}, JsonObjectSchema);

const booleanish = z.preprocess(
  (value) =>
    value === "true" || value === "1" ? true : value === "false" || value === "0" ? false : value,
  z.boolean(),
);

const fields = {
  content: z.string().max(MAX_CONTENT_LENGTH).nullable().optional(),
  message_type: z
    .union([z.enum(["incoming", "outgoing", "template"]), z.literal(0), z.literal(1), z.literal(3)])
    .optional()
    .openapi({
      description: "outgoing (default), incoming (API inboxes only) or template; names or 0/1/3",
    }),
  private: booleanish.optional().openapi({ description: "A private note, seen by agents only" }),
  content_type: z.enum(CONTENT_TYPES).optional(),
  content_attributes: jsonObjectString.optional(),
  echo_id: z
    .string()
    .max(255)
    .optional()
    .openapi({ description: "Client correlation id, echoed back" }),
};

export const MessageCreateJsonSchema = z.object(fields).openapi("MessageCreate");

/** What a visitor sends (public API, and the visitor's socket). */
export const PUBLIC_MESSAGE_FIELDS = {
  content: z.string().max(MAX_CONTENT_LENGTH).nullable().optional(),
  echo_id: z
    .string()
    .max(255)
    .optional()
    .openapi({ description: "Client correlation id, echoed back in the message and its frames" }),
};

export const PublicMessageCreateSchema = z
  .object(PUBLIC_MESSAGE_FIELDS)
  .openapi("PublicMessageCreate");

const fileList = z
  .array(z.instanceof(File).openapi({ type: "string", format: "binary" }))
  .max(MAX_ATTACHMENTS);

/** Multipart bodies: fields arrive as text; files under `attachments[]` (or `attachments`). */
export const multipartWithAttachments = <T extends z.ZodRawShape>(shape: T) =>
  z.preprocess(
    (value) => {
      if (!value || typeof value !== "object") {
        return value;
      }
      const form = { ...(value as Record<string, unknown>) };
      const files = [form["attachments[]"], form.attachments].flat().filter((f) => f !== undefined);
      delete form["attachments[]"];
      return { ...form, attachments: files };
    },
    z.object({ ...shape, attachments: fileList }),
  );

export const MessageCreateFormSchema =
  multipartWithAttachments(fields).openapi("MessageCreateMultipart");

export const MessageUpdateSchema = z
  .object({
    content: z.string().min(1).max(MAX_CONTENT_LENGTH),
    content_attributes: JsonObjectSchema,
    status: z.enum(MESSAGE_STATUSES),
    external_error: z.string().max(1000),
  })
  .partial()
  .openapi("MessageUpdate");

export const MessageListQuery = z.object({
  before: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .openapi({ description: "A message id: the 20 messages before it" }),
  after: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .openapi({ description: "A message id: up to 100 messages after it" }),
});

export type MessageCreateJson = z.infer<typeof MessageCreateJsonSchema>;
export type MessageCreateForm = z.infer<typeof MessageCreateFormSchema>;
export type MessageUpdate = z.infer<typeof MessageUpdateSchema>;

const TYPE_NAMES = { 0: "incoming", 1: "outgoing", 3: "template" } as const;

/** The message service's input from an account-API body (HTTP or the agent's socket). */
export function createInputOf(body: MessageCreateJson & { attachments?: File[] }) {
  const type = body.message_type;
  return {
    content: body.content,
    messageType: typeof type === "number" ? TYPE_NAMES[type] : type,
    private: body.private,
    contentType: body.content_type,
    contentAttributes: body.content_attributes,
    echoId: body.echo_id,
    files: body.attachments ?? [],
  };
}

export type ContactMessageInput = { content?: string | null; echoId?: string; files?: File[] };

/** The message service's input from a visitor (public API or the visitor's socket): incoming. */
export const asContactMessage = (input: ContactMessageInput) =>
  ({ ...input, messageType: "incoming" }) as const;
