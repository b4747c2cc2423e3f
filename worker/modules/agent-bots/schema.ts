import { z } from "@hono/zod-openapi";
import { JsonObjectSchema } from "../../http/schemas/bounded-json";
import { unwrapped } from "../../http/schemas/envelopes";
import { httpUrl as urlField } from "../../http/schemas/urls";

const botFields = {
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  thumbnail: z.string().openapi({ description: "Avatar URL, or an empty string." }),
  outgoing_url: z.string().openapi({ description: "Webhook URL the bot's events are sent to." }),
  bot_type: z.string().openapi({ example: "webhook" }),
  bot_config: z.record(z.string(), z.unknown()),
  account_id: z
    .number()
    .int()
    .nullable()
    .openapi({ description: "The bot's account; null for a system bot." }),
  access_token: z.string(),
  system_bot: z.boolean(),
  secret: z.string().openapi({ description: "Signs the deliveries to outgoing_url." }),
};

/**
 * The account API's view. Administrators see the token and secret of their account's bots;
 * a system bot never shows its URL, token or secret to an account.
 */
export const AgentBotSchema = z
  .object({
    ...botFields,
    outgoing_url: botFields.outgoing_url.optional(),
    access_token: botFields.access_token.optional(),
    secret: botFields.secret.optional(),
  })
  .openapi("AgentBot", { description: "The spec's agent bot record." });

export const AgentBotListSchema = z.array(AgentBotSchema).openapi("AgentBotList");

/** The platform API's view: the app created the bot, so it sees everything. */
export const PlatformAgentBotSchema = z.object(botFields).openapi("PlatformAgentBot");

export const PlatformAgentBotListSchema = z
  .array(PlatformAgentBotSchema)
  .openapi("PlatformAgentBotList");

const httpUrl = urlField();

const writableFields = {
  name: z.string().trim().min(1).max(255).openapi({ example: "Triage bot" }),
  description: z.string().max(2000).nullable(),
  outgoing_url: httpUrl.nullable().openapi({ example: "https://bot.example.com/events" }),
  avatar_url: httpUrl.nullable().openapi({ description: "Stored as the bot's thumbnail." }),
  thumbnail: httpUrl.nullable().openapi({ description: "Alias of avatar_url." }),
  bot_type: z
    .union([z.literal("webhook"), z.literal(0)])
    .openapi({ description: "webhook, or Chatwoot's 0." }),
  bot_config: JsonObjectSchema,
};

const createFields = z.object(writableFields).partial().required({ name: true });
const updateFields = z.object(writableFields).partial();
const accountIdField = {
  account_id: z
    .number()
    .int()
    .positive()
    .nullable()
    .optional()
    .openapi({ description: "An account the app manages; omit or null for a system bot." }),
};

export const AgentBotCreateSchema = unwrapped("agent_bot", createFields.openapi("AgentBotCreate"));
export const AgentBotUpdateSchema = unwrapped("agent_bot", updateFields.openapi("AgentBotUpdate"));
export const PlatformAgentBotCreateSchema = unwrapped(
  "agent_bot",
  createFields.extend(accountIdField).openapi("PlatformAgentBotCreate"),
);
export const PlatformAgentBotUpdateSchema = unwrapped(
  "agent_bot",
  updateFields.extend(accountIdField).openapi("PlatformAgentBotUpdate"),
);

export type AgentBotWrite = z.infer<typeof updateFields> & { account_id?: number | null };
