import { z } from "@hono/zod-openapi";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";

export const ACCOUNT_FEATURES = [
  "agent_management",
  "agent_bots",
  "automations",
  "custom_attributes",
  "help_center",
  "inbox_management",
  "labels",
  "reports",
  "team_management",
  "webhooks",
] as const;

/**
 * Features Parley does not have yet: reported false whatever is stored, so a Chatwoot client
 * never offers something that would answer 404. None now: reports are /api/v2
 * (docs/reports.md), the help center is /portals and /hc (docs/help-center.md).
 */
export const UNAVAILABLE_FEATURES: ReadonlySet<string> = new Set<string>();

const locale = z
  .string()
  .regex(/^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/, "must be a locale code such as en or pt_BR")
  .openapi({ example: "en" });
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const AccountSettingsSchema = z.object({
  auto_resolve_after: z.number().int().nullable(),
  auto_resolve_message: z.string().nullable(),
  auto_resolve_ignore_waiting: z.boolean(),
});

export const AccountSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    locale: z.string(),
    domain: z.string().nullable(),
    support_email: z.string().nullable(),
    status: z.enum(["active", "suspended"]),
    created_at: z.string().openapi({ format: "date-time" }),
    cache_keys: z.record(z.string(), z.number()),
    features: z.record(z.string(), z.boolean()),
    settings: AccountSettingsSchema,
    custom_attributes: z.record(z.string(), z.unknown()),
    latest_service_version: z.string().nullable(),
    subscribed_features: z.array(z.string()),
  })
  .openapi("Account");

export const PlatformAccountSchema = AccountSchema.extend({
  enabled_features: z.record(z.string(), z.boolean()),
  limits: z.record(z.string(), z.unknown()),
}).openapi("PlatformAccount");

const features = z.partialRecord(z.enum(ACCOUNT_FEATURES), z.boolean());

export const PlatformAccountCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    locale: locale.optional(),
    domain: optionalText(100),
    support_email: z.email().max(255).nullable().optional(),
    status: z.enum(["active", "suspended"]).optional(),
    features: features.optional(),
    limits: z.record(z.string(), z.number().int().min(0)).optional(),
    custom_attributes: JsonObjectSchema.optional(),
  })
  .openapi("PlatformAccountCreate");

export const PlatformAccountUpdateSchema =
  PlatformAccountCreateSchema.partial().openapi("PlatformAccountUpdate");

/** Chatwoot's account update: settings and a few custom attributes flattened into the body. */
export const AccountUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    locale,
    domain: optionalText(100),
    support_email: z.email().max(255).nullable(),
    auto_resolve_after: z.number().int().min(10).max(1_439_856).nullable(),
    auto_resolve_message: z.string().max(10_000).nullable(),
    auto_resolve_ignore_waiting: z.boolean(),
    industry: z.string().max(255),
    company_size: z.string().max(255),
    timezone: z.string().max(100),
  })
  .partial()
  .openapi("AccountUpdate");

export type PlatformAccountCreate = z.infer<typeof PlatformAccountCreateSchema>;
export type AccountUpdate = z.infer<typeof AccountUpdateSchema>;
