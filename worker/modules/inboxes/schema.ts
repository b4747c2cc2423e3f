import { z } from "@hono/zod-openapi";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";
import { httpUrl } from "../../http/schemas/urls";

export const CHANNEL_TYPES = { api: "Channel::Api", web_widget: "Channel::WebWidget" } as const;
export const REPLY_TIMES = ["in_a_few_minutes", "in_a_few_hours", "in_a_day"] as const;

/** Keys of the channel, accepted nested under `channel` or flat beside the inbox's own. */
export const CHANNEL_KEYS = [
  "webhook_url",
  "hmac_mandatory",
  "additional_attributes",
  "website_url",
  "widget_color",
  "welcome_title",
  "welcome_tagline",
  "reply_time",
  "pre_chat_form_enabled",
  "pre_chat_form_options",
] as const;

export const WorkingHourSchema = z
  .object({
    day_of_week: z.number().int().openapi({ description: "0 Sunday … 6 Saturday" }),
    closed_all_day: z.boolean(),
    open_all_day: z.boolean(),
    open_hour: z.number().int().nullable(),
    open_minutes: z.number().int().nullable(),
    close_hour: z.number().int().nullable(),
    close_minutes: z.number().int().nullable(),
  })
  .openapi("WorkingHour");

export const InboxSchema = z
  .object({
    id: z.number().int(),
    account_id: z.number().int(),
    avatar_url: z.string(),
    channel_id: z.number().int(),
    name: z.string(),
    channel_type: z.enum([CHANNEL_TYPES.api, CHANNEL_TYPES.web_widget]),
    greeting_enabled: z.boolean(),
    greeting_message: z.string().nullable(),
    working_hours_enabled: z.boolean(),
    enable_email_collect: z.boolean(),
    csat_survey_enabled: z.boolean(),
    enable_auto_assignment: z.boolean(),
    auto_assignment_config: z.object({ max_assignment_limit: z.number().int().nullable() }),
    out_of_office_message: z.string().nullable(),
    working_hours: z.array(WorkingHourSchema),
    timezone: z.string(),
    callback_webhook_url: z.string().nullable(),
    allow_messages_after_resolved: z.boolean(),
    lock_to_single_conversation: z.boolean(),
    sender_name_type: z.literal("friendly"),
    business_name: z.string().nullable(),
    webhook_url: z.string().nullable(),
    inbox_identifier: z.string(),
    additional_attributes: z.record(z.string(), z.unknown()),
    hmac_mandatory: z.boolean(),
    website_url: z.string().nullable(),
    widget_color: z.string(),
    website_token: z.string().nullable(),
    web_widget_script: z.string().nullable(),
    welcome_title: z.string().nullable(),
    welcome_tagline: z.string().nullable(),
    reply_time: z.string(),
    pre_chat_form_enabled: z.boolean(),
    pre_chat_form_options: z.record(z.string(), z.unknown()),
    hmac_token: z.string().optional().openapi({ description: "Administrators only." }),
    secret: z.string().optional().openapi({ description: "Administrators only; = hmac_token." }),
  })
  .openapi("Inbox");

export const InboxListSchema = z.object({ payload: z.array(InboxSchema) }).openapi("InboxList");

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** "" clears an optional URL, as Chatwoot's dashboard sends it. */
const optionalUrl = z.preprocess((v) => (v === "" ? null : v), httpUrl().nullable());

const text = (max: number) => z.string().trim().max(max).nullable();

const WorkingHourInputSchema = z
  .object({
    day_of_week: z.number().int().min(0).max(6),
    closed_all_day: z.boolean().default(false),
    open_all_day: z.boolean().default(false),
    open_hour: z.number().int().min(0).max(23).nullable().optional(),
    open_minutes: z.number().int().min(0).max(59).nullable().optional(),
    close_hour: z.number().int().min(0).max(23).nullable().optional(),
    close_minutes: z.number().int().min(0).max(59).nullable().optional(),
  })
  .superRefine((h, ctx) => {
    if (h.closed_all_day && h.open_all_day) {
      ctx.addIssue({ code: "custom", message: "cannot be both closed and open all day" });
    }
    if (h.closed_all_day || h.open_all_day) {
      return;
    }
    const { open_hour: oh, open_minutes: om, close_hour: ch, close_minutes: cm } = h;
    if (oh == null || om == null || ch == null || cm == null) {
      ctx.addIssue({ code: "custom", message: "needs open and close hours and minutes" });
    } else if (ch * 60 + cm <= oh * 60 + om) {
      ctx.addIssue({ code: "custom", message: "must close after it opens" });
    }
  });

const ChannelFields = {
  webhook_url: optionalUrl,
  hmac_mandatory: z.boolean(),
  additional_attributes: JsonObjectSchema,
  website_url: z.string().trim().min(1).max(255),
  widget_color: z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a #rrggbb colour"),
  welcome_title: text(255),
  welcome_tagline: text(255),
  reply_time: z.enum(REPLY_TIMES),
  pre_chat_form_enabled: z.boolean(),
  pre_chat_form_options: JsonObjectSchema,
};

const InboxFields = {
  name: z.string().trim().min(1).max(255).openapi({ example: "Support" }),
  avatar_url: optionalUrl,
  greeting_enabled: z.boolean(),
  greeting_message: text(10_000),
  enable_auto_assignment: z.boolean(),
  /** Chatwoot's: at most this many open conversations per agent are auto-assigned (null: no cap). */
  auto_assignment_config: z
    .object({ max_assignment_limit: z.number().int().min(1).max(10_000).nullable().optional() })
    .strict(),
  enable_email_collect: z.boolean(),
  csat_survey_enabled: z.boolean(),
  allow_messages_after_resolved: z.boolean(),
  lock_to_single_conversation: z.boolean(),
  timezone: z
    .string()
    .trim()
    .max(100)
    .refine(isTimeZone, "must be an IANA time zone")
    .openapi({ example: "America/New_York" }),
  working_hours_enabled: z.boolean(),
  out_of_office_message: text(10_000),
  working_hours: z
    .array(WorkingHourInputSchema)
    .max(7)
    .refine(
      (days) => new Set(days.map((d) => d.day_of_week)).size === days.length,
      "lists a day twice",
    ),
  business_name: text(255),
};

/** Lifts channel keys sent flat into `channel`; nested values win. */
const liftChannel = (value: unknown) => {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return value;
  }
  const body = value as Record<string, unknown>;
  const nested = body.channel;
  if (
    nested !== undefined &&
    (typeof nested !== "object" || nested === null || Array.isArray(nested))
  ) {
    return value;
  }
  const flat = Object.fromEntries(CHANNEL_KEYS.filter((k) => k in body).map((k) => [k, body[k]]));
  return { ...body, channel: { ...flat, ...(nested as object | undefined) } };
};

export const InboxCreateSchema = z.preprocess(
  liftChannel,
  z
    .object(InboxFields)
    .partial()
    .extend({
      name: InboxFields.name,
      channel: z
        .object(ChannelFields)
        .partial()
        .extend({ type: z.enum(["api", "web_widget"]).openapi({ example: "api" }) })
        .openapi("InboxChannelCreate"),
    })
    .openapi("InboxCreate"),
);

export const InboxUpdateSchema = z.preprocess(
  liftChannel,
  z
    .object(InboxFields)
    .partial()
    .extend({
      channel: z.object(ChannelFields).partial().optional().openapi("InboxChannelUpdate"),
    })
    .openapi("InboxUpdate"),
);

export type InboxCreate = z.infer<typeof InboxCreateSchema>;
export type InboxUpdate = z.infer<typeof InboxUpdateSchema>;
export type WorkingHourInput = z.infer<typeof WorkingHourInputSchema>;
export type ChannelInput = Partial<z.infer<z.ZodObject<typeof ChannelFields>>>;

/** A slim bot: the full bot record belongs to the agent-bots module. */
export const InboxBotSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    thumbnail: z.string(),
    bot_type: z.string(),
    account_id: z.number().int().nullable(),
  })
  .openapi("InboxAgentBot");

export const InboxBotResponseSchema = z
  .object({ agent_bot: InboxBotSchema.nullable() })
  .openapi("InboxAgentBotResponse");

export const SetAgentBotSchema = z
  .object({
    agent_bot: z
      .union([
        z.number().int().positive(),
        z
          .string()
          .regex(/^\d{1,15}$/)
          .transform(Number),
      ])
      .nullable()
      .openapi({ type: "integer", example: 1, description: "A bot id, or null to detach." }),
  })
  .openapi("SetAgentBot");
