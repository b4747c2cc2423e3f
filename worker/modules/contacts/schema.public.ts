import { z } from "@hono/zod-openapi";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";
import { InboxIdentifierParam } from "../inboxes/schema.public";
import { ContactSchema } from "./schema";
import { ContactUpdateSchema } from "./schema.requests";

export const ContactIdentifierParam = z
  .string()
  .min(1)
  .max(255)
  .openapi({
    param: { name: "contact_identifier", in: "path" },
    description: "The source_id returned when the contact was created",
    example: "5c4cbd5e-2d7b-4f0e-9a57-1f1e0e1b8c3a",
  });

export const ContactPublicParams = z.object({
  inbox_identifier: InboxIdentifierParam,
  contact_identifier: ContactIdentifierParam,
});

const blankToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);

/** Fields a visitor may set on itself; the rest of the contact is the agents' business. */
export const PublicContactInputSchema = ContactUpdateSchema.pick({
  name: true,
  email: true,
  phone_number: true,
  identifier: true,
  avatar_url: true,
  custom_attributes: true,
})
  .extend({
    identifier_hash: z.preprocess(
      blankToNull,
      z
        .string()
        .trim()
        .max(255)
        .nullable()
        .optional()
        .openapi({
          description:
            "Hex HMAC-SHA256 of identifier keyed with the inbox's hmac_token; required with an " +
            "identifier when the inbox has hmac_mandatory",
          example: "e93275d4eba0e5679ad55f5360af00444e2a888df9b0afa3e8b691c3173725f9",
        }),
    ),
  })
  .openapi("PublicContactInput");

export type PublicContactInput = z.infer<typeof PublicContactInputSchema>;

const isoOrNull = z.string().nullable().openapi({ format: "date-time" });
const iso = z.string().openapi({ format: "date-time" });

/**
 * The spec's "Public contact (full record)": Chatwoot's raw contact JSON, so ISO 8601 times,
 * the stored additional_attributes and the model's own columns beside the contact's keys.
 */
export const PublicContactSchema = ContactSchema.pick({
  id: true,
  name: true,
  email: true,
  phone_number: true,
  identifier: true,
  blocked: true,
  custom_attributes: true,
})
  .extend({
    account_id: z.number().int(),
    company_id: z.number().int().nullable(),
    contact_type: z.string(),
    country_code: z.string().nullable(),
    last_activity_at: isoOrNull,
    created_at: iso,
    updated_at: iso,
    last_name: z.string().nullable(),
    middle_name: z.string().nullable(),
    location: z.string().nullable(),
    additional_attributes: z.record(z.string(), z.unknown()),
    label_list: z.array(z.string()),
  })
  .openapi("PublicContact");

/** The contact as its own session sees it: plus the credentials of later calls. */
export const PublicContactSessionSchema = PublicContactSchema.extend({
  source_id: z.string().openapi({ description: "The contact_identifier of every later call" }),
  pubsub_token: z.string().openapi({ description: "Token for the contact's live socket" }),
}).openapi("PublicContactSession");

export type PublicContact = z.infer<typeof PublicContactSchema>;
export type PublicContactSession = z.infer<typeof PublicContactSessionSchema>;

/** Chatwoot's widget events (`POST /api/v1/widget/events`): only the widget being opened. */
export const WidgetEventSchema = z
  .object({
    name: z.literal("webwidget.triggered").openapi({ example: "webwidget.triggered" }),
    event_info: JsonObjectSchema.optional().openapi({
      description: "What the widget knows: initiated_at, referer, widget_language, browser …",
      example: {
        initiated_at: { timestamp: "2026-01-01T10:00:00Z" },
        referer: "https://x.test/",
      },
    }),
  })
  .openapi("WidgetEvent");

export type WidgetEvent = z.infer<typeof WidgetEventSchema>;
