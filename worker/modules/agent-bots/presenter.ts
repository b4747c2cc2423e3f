import type { z } from "@hono/zod-openapi";
import type { AgentBotRow } from "../../db/schema";
import type { Sender } from "../messages/schema";
import type { BotWithToken } from "./queries";
import type { AgentBotSchema, PlatformAgentBotSchema } from "./schema";

type PlatformAgentBot = z.infer<typeof PlatformAgentBotSchema>;

/** Everything about the bot, for the platform app that created it. */
export function presentPlatformAgentBot({ bot, token }: BotWithToken): PlatformAgentBot {
  return {
    id: bot.id,
    name: bot.name,
    description: bot.description ?? "",
    thumbnail: bot.thumbnail ?? "",
    outgoing_url: bot.outgoingUrl ?? "",
    bot_type: bot.botType,
    bot_config: bot.botConfig,
    account_id: bot.accountId,
    access_token: token ?? "",
    system_bot: bot.accountId === null,
    secret: bot.secret,
  };
}

/**
 * The account API's view. Chatwoot hides a system bot's URL; Parley also keeps bot tokens and
 * secrets to administrators, since a bot token acts in every inbox the bot is attached to.
 */
export function presentAgentBot(
  row: BotWithToken,
  viewer: "administrator" | "agent",
): z.infer<typeof AgentBotSchema> {
  const { outgoing_url, access_token, secret, ...base } = presentPlatformAgentBot(row);
  if (base.system_bot) {
    return base;
  }
  return viewer === "administrator"
    ? { ...base, outgoing_url, access_token, secret }
    : { ...base, outgoing_url };
}

/** The bot as a message's sender. */
export function presentAgentBotSender(bot: AgentBotRow): Sender {
  const avatar = bot.thumbnail ?? "";
  return {
    id: bot.id,
    name: bot.name,
    type: "agent_bot",
    description: bot.description,
    avatar_url: avatar,
    thumbnail: avatar,
  };
}
