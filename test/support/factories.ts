import { env } from "cloudflare:test";
import { createDb } from "../../worker/db/client";
import * as t from "../../worker/db/schema";
import { secureToken } from "../../worker/lib/ids";

/** Test data is inserted straight through drizzle: fresh ids per call, no shared seed. */
export const db = () => createDb(env.DB);

let seq = 0;
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

async function tokenFor(ownerType: t.TokenOwnerType, ownerId: number) {
  const token = secureToken();
  await db().insert(t.accessTokens).values({ ownerType, ownerId, token });
  return token;
}

export async function createPlatformApp() {
  const [app] = await db()
    .insert(t.platformApps)
    .values({ name: unique("app") })
    .returning();
  if (!app) {
    throw new Error("platform app not created");
  }
  return { id: app.id, token: await tokenFor("PlatformApp", app.id) };
}

export async function permit(appId: number, type: t.PermissibleType, id: number) {
  await db()
    .insert(t.platformAppPermissibles)
    .values({ platformAppId: appId, permissibleType: type, permissibleId: id });
}

export async function createAccount(values: Partial<typeof t.accounts.$inferInsert> = {}) {
  const [account] = await db()
    .insert(t.accounts)
    .values({ name: unique("Account"), ...values })
    .returning();
  if (!account) {
    throw new Error("account not created");
  }
  return account;
}

export type TestUser = { id: number; email: string; name: string; token: string };

export async function createUser(
  values: Partial<typeof t.users.$inferInsert> = {},
): Promise<TestUser> {
  const name = values.name ?? unique("User");
  const [user] = await db()
    .insert(t.users)
    .values({ name, email: `${unique("user")}@example.com`, pubsubToken: secureToken(), ...values })
    .returning();
  if (!user) {
    throw new Error("user not created");
  }
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    token: await tokenFor("User", user.id),
  };
}

export async function addToAccount(
  accountId: number,
  userId: number,
  role: "agent" | "administrator",
) {
  await db().insert(t.accountUsers).values({ accountId, userId, role });
}

export async function createAdmin(accountId: number) {
  const user = await createUser();
  await addToAccount(accountId, user.id, "administrator");
  return user;
}

export async function createAgent(accountId: number) {
  const user = await createUser();
  await addToAccount(accountId, user.id, "agent");
  return user;
}

export async function createInbox(
  accountId: number,
  values: Partial<typeof t.inboxes.$inferInsert> = {},
) {
  const [inbox] = await db()
    .insert(t.inboxes)
    .values({
      accountId,
      name: unique("Inbox"),
      channelType: "Channel::Api",
      inboxIdentifier: secureToken(),
      hmacToken: secureToken(),
      ...values,
    })
    .returning();
  if (!inbox) {
    throw new Error("inbox not created");
  }
  return inbox;
}

export async function addInboxMember(inboxId: number, userId: number) {
  await db().insert(t.inboxMembers).values({ inboxId, userId });
}

export async function createAgentBot(values: Partial<typeof t.agentBots.$inferInsert> = {}) {
  const [bot] = await db()
    .insert(t.agentBots)
    .values({ name: unique("Bot"), secret: secureToken(32), ...values })
    .returning();
  if (!bot) {
    throw new Error("bot not created");
  }
  return { ...bot, token: await tokenFor("AgentBot", bot.id) };
}

export async function attachBot(accountId: number, inboxId: number, agentBotId: number) {
  await db().insert(t.agentBotInboxes).values({ accountId, inboxId, agentBotId });
}

export async function createTeam(
  accountId: number,
  values: Partial<typeof t.teams.$inferInsert> = {},
) {
  const [team] = await db()
    .insert(t.teams)
    .values({ accountId, name: unique("team").toLowerCase(), ...values })
    .returning();
  if (!team) {
    throw new Error("team not created");
  }
  return team;
}

/** An account with an administrator, an agent and an agent bot attached to an inbox. */
export async function createWorld() {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  const agent = await createAgent(account.id);
  const inbox = await createInbox(account.id);
  const bot = await createAgentBot({ accountId: account.id });
  await attachBot(account.id, inbox.id, bot.id);
  return { account, admin, agent, inbox, bot };
}
