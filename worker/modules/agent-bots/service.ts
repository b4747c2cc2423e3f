import type { AgentBotRow } from "../../db/schema";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { randomBase64, secureToken } from "../../lib/ids";
import { deleteForOwner, insertTokenFor, upsertToken } from "../access-tokens/queries";
import { findAccount } from "../accounts/queries";
import { botRevokedEverywhere } from "../live/revocation";
import { assertPermitted } from "../platform-apps/policy";
import { isPermitted, permitLastInserted, revokeAll } from "../platform-apps/queries";
import { checkReceiverUrl } from "../webhooks/service";
import {
  type BotWithToken,
  botIdBySecret,
  deleteBot as deleteBotRow,
  findBotUsableIn,
  findBotWithToken,
  insertBot,
  type NewAgentBot,
  updateBot as updateBotRow,
} from "./queries";
import type { AgentBotWrite } from "./schema";

/** The columns a create or update sets; outgoing_url must not reach a private network. */
function botValues(deps: Deps, input: AgentBotWrite): Partial<NewAgentBot> {
  if (input.outgoing_url) {
    checkReceiverUrl(deps, "outgoing_url", input.outgoing_url);
  }
  const values: Partial<NewAgentBot> = {};
  if (input.name !== undefined) {
    values.name = input.name;
  }
  if (input.description !== undefined) {
    values.description = input.description;
  }
  if (input.outgoing_url !== undefined) {
    values.outgoingUrl = input.outgoing_url;
  }
  const thumbnail = input.avatar_url !== undefined ? input.avatar_url : input.thumbnail;
  if (thumbnail !== undefined) {
    values.thumbnail = thumbnail;
  }
  if (input.bot_type !== undefined) {
    // Chatwoot's only bot type; its integer form (0) is stored by name.
    values.botType = "webhook";
  }
  if (input.bot_config !== undefined) {
    values.botConfig = input.bot_config;
  }
  if (input.account_id !== undefined) {
    values.accountId = input.account_id;
  }
  return values;
}

/**
 * Creates a bot with its access token and signing secret, atomically; a platform app is also
 * granted the bot.
 */
export async function createBot(
  deps: Deps,
  input: AgentBotWrite & { name: string },
  owner: { platformAppId: number } | { accountId: number },
): Promise<BotWithToken> {
  const { db } = deps;
  const secret = randomBase64(32);
  const token = secureToken();
  const values = { ...botValues(deps, input), secret } as NewAgentBot;
  if ("accountId" in owner) {
    values.accountId = owner.accountId;
  }
  const insert = insertBot(db, values);
  const tokenInsert = insertTokenFor(db, "AgentBot", botIdBySecret(db, secret), token);
  const [rows] =
    "platformAppId" in owner
      ? await db.batch([
          insert,
          permitLastInserted(db, owner.platformAppId, "AgentBot"),
          tokenInsert,
        ])
      : await db.batch([insert, tokenInsert]);
  const bot = rows[0];
  if (!bot) {
    throw new ApiError("internal_error");
  }
  return { bot, token };
}

export async function updateBot(
  deps: Deps,
  current: BotWithToken,
  input: AgentBotWrite,
): Promise<BotWithToken> {
  const values = botValues(deps, input);
  const [bot] = await updateBotRow(deps.db, current.bot.id, { ...values, updatedAt: deps.now() });
  return { bot: bot ?? current.bot, token: current.token };
}

/** Deletes the bot; its inbox attachments cascade, its token and grants go explicitly. */
export async function deleteBot(deps: Deps, bot: AgentBotRow): Promise<void> {
  const { db } = deps;
  // Read before the delete: the bot's inbox attachments go with it.
  const revoked = await botRevokedEverywhere(db, bot);
  await commit(
    deps,
    [
      deleteForOwner(db, "AgentBot", bot.id),
      deleteBotRow(db, bot.id),
      revokeAll(db, "AgentBot", bot.id),
    ],
    revoked,
  );
}

/** Issues a new access token; the old one and the sockets opened with it stop working at once. */
export async function resetBotToken(deps: Deps, current: BotWithToken): Promise<BotWithToken> {
  const token = secureToken();
  await commit(
    deps,
    [upsertToken(deps.db, "AgentBot", current.bot.id, token, deps.now())],
    await botRevokedEverywhere(deps.db, current.bot),
  );
  return { bot: current.bot, token };
}

/** A bot the platform app created, else 404. */
export async function findPlatformBot(
  deps: Deps,
  platformAppId: number,
  id: number,
): Promise<BotWithToken> {
  await assertPermitted(deps, platformAppId, "AgentBot", id);
  const row = await findBotWithToken(deps.db, id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

/** A platform app may put a bot only in an account it manages; others look missing. */
export async function assertBotAccountAllowed(
  deps: Deps,
  platformAppId: number,
  accountId: number | null | undefined,
): Promise<void> {
  if (accountId === null || accountId === undefined) {
    return;
  }
  const allowed =
    (await isPermitted(deps.db, platformAppId, "Account", accountId)) &&
    (await findAccount(deps.db, accountId)) !== undefined;
  if (!allowed) {
    throw new ApiError("not_found", "Account could not be found");
  }
}

/**
 * A bot as seen from an account: its own bots and the system bots. Changes are limited to the
 * account's own bots, so a system bot is missing for them.
 */
export async function findAccountBot(
  deps: Deps,
  accountId: number,
  id: number,
  opts: { toChange?: boolean } = {},
): Promise<BotWithToken> {
  const row = await findBotUsableIn(deps.db, accountId, id);
  if (!row || (opts.toChange && row.bot.accountId !== accountId)) {
    throw new ApiError("not_found");
  }
  return row;
}
