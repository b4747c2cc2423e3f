import { z } from "@hono/zod-openapi";
import { LocaleSchema, optionalText, SlugInput } from "./schema.common";

const LocaleCount = z.object({
  code: z.string(),
  articles_count: z.number().int(),
  categories_count: z.number().int(),
});

export const PortalInboxSchema = z
  .object({
    id: z.number().int(),
    channel_id: z.number().int(),
    name: z.string(),
    website_url: z.string().nullable(),
    channel_type: z.string(),
    avatar_url: z.string(),
    widget_color: z.string().nullable(),
    website_token: z.string().nullable(),
    web_widget_script: z.string().nullable(),
    welcome_title: z.string().nullable(),
    welcome_tagline: z.string().nullable(),
    greeting_message: z.string().nullable(),
    timezone: z.string(),
    business_name: z.string().nullable(),
    enable_auto_assignment: z.boolean(),
    greeting_enabled: z.boolean(),
    working_hours_enabled: z.boolean(),
    enable_email_collect: z.boolean(),
    csat_survey_enabled: z.boolean(),
    hmac_mandatory: z.boolean(),
  })
  .openapi("PortalInbox");

export const PortalLogoSchema = z
  .object({
    id: z.number().int(),
    portal_id: z.number().int(),
    account_id: z.number().int(),
    blob_id: z.number().int(),
    file_type: z.string(),
    file_url: z.string(),
    filename: z.string(),
  })
  .openapi("PortalLogo");

export const DomainVerificationSchema = z
  .object({
    status: z.enum(["pending", "verified"]).openapi({
      description: "Only a verified domain serves the portal",
    }),
    record_type: z.literal("TXT"),
    record_name: z.string().openapi({ example: "_parley-challenge.help.acme.example" }),
    record_value: z.string().openapi({ description: "The token to publish as the TXT record" }),
    verified_at: z.number().int().nullable(),
  })
  .openapi("PortalDomainVerification", {
    description:
      "How to prove the custom domain: publish `record_value` as a TXT record at `record_name`, " +
      "then `POST …/portals/{portal_slug}/custom_domain/verify`.",
  });

export const PortalSchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    archived: z.boolean(),
    color: z.string().nullable(),
    custom_domain: z.string().nullable(),
    custom_domain_verification: DomainVerificationSchema.nullable().openapi({
      description: "Null without a custom domain",
    }),
    header_text: z.string().nullable(),
    homepage_link: z.string().nullable(),
    page_title: z.string().nullable(),
    config: z.object({
      allowed_locales: z.array(LocaleCount),
      default_locale: z.string(),
    }),
    inbox: PortalInboxSchema.nullable(),
    logo: PortalLogoSchema.nullable(),
    meta: z.object({
      all_articles_count: z.number().int(),
      archived_articles_count: z.number().int(),
      published_count: z.number().int(),
      draft_articles_count: z.number().int(),
      mine_articles_count: z.number().int(),
      categories_count: z.number().int(),
      default_locale: z.string(),
    }),
    public_url: z.string().openapi({ description: "Where visitors read the portal" }),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .openapi("Portal");

/** Chatwoot clients read `payload`; the spec's E9 answers it too: both are here. */
export const PortalEnvelopeSchema = PortalSchema.extend({ payload: PortalSchema }).openapi(
  "PortalEnvelope",
);

export const PortalListSchema = z
  .object({ payload: z.array(PortalSchema), meta: z.object({ portals_count: z.number().int() }) })
  .openapi("PortalList");

const hexColor = z
  .string()
  .trim()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex colour such as #1f93ff");

const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    "must be a host name such as help.example.com",
  );

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .regex(/^https?:\/\/[^\s<>"]+$/i, "must be an http(s) URL");

const portalFields = {
  name: z.string().trim().min(1).max(255).openapi({ example: "Handbook" }),
  slug: SlugInput,
  color: hexColor.nullable().optional(),
  custom_domain: hostname
    .nullable()
    .optional()
    .or(z.literal("").transform(() => null))
    .openapi({
      description:
        "A claim, served only once verified (`POST …/custom_domain/verify`); a new domain gets a " +
        "new token. Never the service's own host, a loopback name, *.workers.dev or RESERVED_DOMAINS.",
    }),
  header_text: optionalText(255),
  homepage_link: httpUrl
    .nullable()
    .optional()
    .or(z.literal("").transform(() => null)),
  page_title: optionalText(255),
  archived: z.boolean().optional(),
  config: z
    .object({
      allowed_locales: z.array(LocaleSchema).min(1).max(50).optional(),
      default_locale: LocaleSchema.optional(),
    })
    .optional()
    .openapi({ example: { allowed_locales: ["en", "es"], default_locale: "en" } }),
  inbox_id: z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .nullable()
    .optional()
    .openapi({ description: "A web-widget inbox of the account whose widget shows the portal" }),
};

export const PortalCreateSchema = z.object(portalFields).openapi("PortalCreate");
export const PortalUpdateSchema = z
  .object({ ...portalFields, name: portalFields.name.optional() })
  .openapi("PortalUpdate");

export type PortalCreate = z.infer<typeof PortalCreateSchema>;
export type PortalUpdate = z.infer<typeof PortalUpdateSchema>;
export type PortalJson = z.infer<typeof PortalSchema>;
