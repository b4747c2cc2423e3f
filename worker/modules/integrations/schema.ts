import { z } from "@hono/zod-openapi";
import { WEBHOOK_EVENTS } from "../../events/names";
import { accountParams, IdParam } from "../../http/schemas/ids";

export const HookParams = accountParams({
  hook_id: IdParam.openapi({
    param: { name: "hook_id", in: "path" },
    type: "integer",
    example: "1",
  }),
});

/** A webhook hook's settings: the webhook's own fields (docs/webhooks.md). */
export const HookSettingsSchema = z
  .object({
    url: z.string().openapi({ example: "https://example.com/webhook" }),
    name: z.string().nullable(),
    subscriptions: z.array(z.enum(WEBHOOK_EVENTS)),
  })
  .openapi("IntegrationHookSettings");

export const HookSchema = z
  .object({
    id: z.number().int().openapi({ description: "The webhook's id" }),
    app_id: z.literal("webhook"),
    status: z.boolean().openapi({ description: "false once disabled (status 0, or a 410 Gone)" }),
    inbox: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    inbox_id: z.number().int().nullable(),
    account_id: z.number().int(),
    hook_type: z.literal("account"),
    settings: HookSettingsSchema.optional().openapi({ description: "Administrators only" }),
  })
  .openapi("IntegrationHook");

export const AppSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    hook_type: z.enum(["account", "inbox"]),
    enabled: z.boolean().openapi({ description: "Whether the account has a hook of the app" }),
    allow_multiple_hooks: z.boolean(),
    action: z.string().nullable().openapi({ description: "null when the app has no setup page" }),
    hooks: z.array(HookSchema),
  })
  .openapi("IntegrationApp");

export const AppListSchema = z
  .object({ payload: z.array(AppSchema) })
  .openapi("IntegrationAppList");

/** Chatwoot's status: 1 enabled, 0 disabled (booleans also read). */
const status = z
  .union([z.literal(0), z.literal(1), z.boolean()])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === true || v === 1))
  .openapi({ type: "integer", enum: [0, 1], description: "1 enabled (default), 0 disabled" });

const settingsFields = {
  url: z.string().trim().min(1).max(2048),
  name: z.string().trim().max(255).nullable().optional(),
  subscriptions: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, "must name at least one event")
    .max(WEBHOOK_EVENTS.length * 2)
    .optional(),
};

export const HookCreateSchema = z
  .object({
    app_id: z.string().min(1).max(64).openapi({ example: "webhook" }),
    inbox_id: z.number().int().positive().nullable().optional(),
    status,
    settings: z
      .object(settingsFields)
      .strict()
      .openapi({ description: "The webhook app's settings: url, name, subscriptions" }),
  })
  .openapi("IntegrationHookCreate");

export const HookUpdateSchema = z
  .object({
    status,
    settings: z
      .object({ ...settingsFields, url: settingsFields.url.optional() })
      .strict()
      .optional(),
  })
  .openapi("IntegrationHookUpdate");

export type HookCreate = z.infer<typeof HookCreateSchema>;
export type HookUpdate = z.infer<typeof HookUpdateSchema>;
