import { and, eq } from "drizzle-orm";
import * as t from "../../worker/db/schema";
import { createAccount, createUser, db, permit } from "./factories";

/** An account the platform app manages. */
export async function createManagedAccount(appId: number) {
  const account = await createAccount();
  await permit(appId, "Account", account.id);
  return account;
}

/** A user the platform app manages. */
export async function createManagedUser(appId: number) {
  const user = await createUser();
  await permit(appId, "User", user.id);
  return user;
}

export const tokenRowOf = (ownerType: t.TokenOwnerType, ownerId: number) =>
  db()
    .select()
    .from(t.accessTokens)
    .where(and(eq(t.accessTokens.ownerType, ownerType), eq(t.accessTokens.ownerId, ownerId)))
    .get();

export const grantsOf = (type: t.PermissibleType, id: number) =>
  db()
    .select()
    .from(t.platformAppPermissibles)
    .where(
      and(
        eq(t.platformAppPermissibles.permissibleType, type),
        eq(t.platformAppPermissibles.permissibleId, id),
      ),
    )
    .all();

export const userRow = (id: number) => db().select().from(t.users).where(eq(t.users.id, id)).get();

export const botRow = (id: number) =>
  db().select().from(t.agentBots).where(eq(t.agentBots.id, id)).get();

export const botAttachments = (agentBotId: number) =>
  db().select().from(t.agentBotInboxes).where(eq(t.agentBotInboxes.agentBotId, agentBotId)).all();

export const membershipsOf = (userId: number) =>
  db().select().from(t.accountUsers).where(eq(t.accountUsers.userId, userId)).all();

export const inboxMembershipsOf = (userId: number) =>
  db().select().from(t.inboxMembers).where(eq(t.inboxMembers.userId, userId)).all();
