import { z } from "@hono/zod-openapi";
import { WorkingHourSchema } from "./schema";

export const InboxIdentifierParam = z
  .string()
  .min(1)
  .max(255)
  .openapi({
    param: { name: "inbox_identifier", in: "path" },
    description: "The inbox's inbox_identifier (API channel identifier or widget website token)",
    example: "7xYbq3kPz1mNcR5tWv8aLd2e",
  });

export const InboxPublicParams = z.object({ inbox_identifier: InboxIdentifierParam });

/** An agent of the inbox as a visitor sees them (Chatwoot's widget `available_agents`). */
export const PublicAgentSchema = z
  .object({
    name: z
      .string()
      .openapi({ description: "The agent's available_name (display name, else name)" }),
    avatar_url: z.string().nullable(),
    availability_status: z.enum(["online", "busy", "offline"]),
  })
  .openapi("PublicAgent");

/** The help-center portal the widget shows (its public pages live under /hc/{slug}). */
export const PublicPortalSchema = z
  .object({
    slug: z.string(),
    default_locale: z.string(),
    allowed_locales: z.array(z.string()).openapi({
      description:
        "The portal's locales: the widget shows articles in the visitor's when it is one",
    }),
  })
  .openapi("PublicPortal");

export type PublicPortal = z.infer<typeof PublicPortalSchema>;

/** What a visitor's client (the widget) may know about an inbox: settings, never secrets. */
export const PublicInboxSchema = z
  .object({
    identifier: z.string(),
    name: z.string(),
    timezone: z.string(),
    working_hours: z.array(WorkingHourSchema),
    working_hours_enabled: z.boolean(),
    csat_survey_enabled: z.boolean(),
    greeting_enabled: z.boolean(),
    greeting_message: z.string().nullable(),
    welcome_title: z.string().nullable(),
    welcome_tagline: z.string().nullable(),
    widget_color: z.string(),
    enable_email_collect: z.boolean(),
    pre_chat_form_enabled: z.boolean(),
    pre_chat_form_options: z.record(z.string(), z.unknown()),
    reply_time: z.string(),
    out_of_office_message: z.string().nullable(),
    identity_validation_enabled: z
      .boolean()
      .openapi({ description: "hmac_mandatory: identifiers need an identifier_hash" }),
    channel_type: z.enum(["Channel::Api", "Channel::WebWidget"]),
    locale: z.string().nullable(),
    available_agents: z.array(PublicAgentSchema).openapi({
      description: "Up to 5 of the inbox's agents, online first: name, avatar, presence only",
    }),
    portal: PublicPortalSchema.nullable().openapi({
      description: "The linked help-center portal, null when none or archived",
    }),
  })
  .openapi("PublicInbox");

export type PublicInbox = z.infer<typeof PublicInboxSchema>;
