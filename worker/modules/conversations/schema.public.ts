import { z } from "@hono/zod-openapi";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";
import { IdParam } from "../../http/schemas/ids";
import { ContactIdentifierParam, PublicContactSchema } from "../contacts/schema.public";
import { InboxIdentifierParam } from "../inboxes/schema.public";
import { PublicMessageSchema } from "../messages/schema";
import { ConversationSchema, seenSeq } from "./schema";

export const PublicConversationParams = z.object({
  inbox_identifier: InboxIdentifierParam,
  contact_identifier: ContactIdentifierParam,
  conversation_id: IdParam.openapi({
    param: { name: "conversation_id", in: "path" },
    type: "integer",
    example: "1",
    description: "The conversation's display_id",
  }),
});

const customAttributes = JsonObjectSchema.optional().openapi({
  description: "Keys must be conversation custom attribute definitions",
});

/** E19's body; every field optional, and the body itself too. */
export const PublicConversationCreateSchema = z
  .object({ custom_attributes: customAttributes })
  .openapi("PublicConversationCreate");

/** Forms carry custom_attributes as a JSON string or as `custom_attributes[key]` fields. */
export const PublicConversationCreateFormSchema = z.preprocess((value) => {
  if (!value || typeof value !== "object") {
    return value;
  }
  const attrs: Record<string, unknown> = {};
  let raw: unknown;
  for (const [key, v] of Object.entries(value)) {
    const nested = /^custom_attributes\[([^\]]+)\]$/.exec(key);
    if (nested?.[1]) {
      attrs[nested[1]] = v;
    } else if (key === "custom_attributes") {
      raw = v;
    }
  }
  if (typeof raw === "string") {
    try {
      return { custom_attributes: JSON.parse(raw) };
    } catch {
      return { custom_attributes: raw };
    }
  }
  return Object.keys(attrs).length > 0 ? { custom_attributes: attrs } : {};
}, PublicConversationCreateSchema);

export const TypingSchema = z
  .object({ typing_status: z.enum(["on", "off"]) })
  .openapi("PublicTypingStatus");

/** The spec's "Public conversation": the conversation's own keys, public messages, the contact. */
export const PublicConversationSchema = ConversationSchema.pick({
  id: true,
  uuid: true,
  inbox_id: true,
  status: true,
  contact_last_seen_at: true,
  agent_last_seen_at: true,
})
  .extend({
    agent_last_seen_seq: seenSeq("agents"),
    messages: z
      .array(PublicMessageSchema)
      .openapi({ description: "The latest 20 non-private messages, oldest first" }),
    contact: PublicContactSchema,
  })
  .openapi("PublicConversation");

export type PublicConversation = z.infer<typeof PublicConversationSchema>;

export const PublicEmptySchema = z.object({}).openapi("PublicEmpty");
