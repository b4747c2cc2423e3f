import type { Db } from "../../db/client";
import type { AgentBotRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import type { LiveHandler } from "../../events/registry";
import type { DomainEvent } from "../../events/types";
import type { Holder } from "../../realtime/revocation";
import { accountIdsOfBotInboxes } from "../agent-bots/queries";
import { membershipsOfUser } from "../users/queries";
import { feedFor } from "./stubs";

/**
 * The event every change that takes access away records with its change (issue 20): the
 * sockets that depended on it close before the change's HTTP answer leaves
 * (realtime/revocation.ts). One per account the holders had access in.
 */
export function accessRevoked(
  accountId: number,
  holders: Holder[] | null,
  inboxId: number | null = null,
): DomainEvent<"access.revoked"> {
  return { name: "access.revoked", accountId, data: { holders, inbox_id: inboxId } };
}

export const userHolder = (id: number): Holder => ({ kind: "user", id });
export const botHolder = (id: number): Holder => ({ kind: "agent_bot", id });

/** After the commit: the account's feed closes what depended on the access (registered in wiring). */
export const revocationHandler: LiveHandler = async ({ event }, { env }) => {
  if (event.name !== "access.revoked") {
    return;
  }
  await feedFor(env, event.accountId).revoke({
    holders: event.data.holders,
    inboxId: event.data.inbox_id,
  });
};

/** A user's access in every account they belong to (a new token or password, the user gone). */
export async function userRevokedEverywhere(db: Db, userId: number) {
  const memberships = await membershipsOfUser(db, userId);
  return memberships.map((m) => accessRevoked(m.account.id, [userHolder(userId)]));
}

/** A bot's access wherever it serves: its own account and those of the inboxes it is in. */
export async function botRevokedEverywhere(db: Db, bot: AgentBotRow) {
  const accounts = new Set(await accountIdsOfBotInboxes(db, bot.id));
  if (bot.accountId !== null) {
    accounts.add(bot.accountId);
  }
  return [...accounts].map((id) => accessRevoked(id, [botHolder(bot.id)]));
}

/**
 * For a change whose batch may refuse it (the last administrator): its revocations are handed
 * to the unit of work once the change is known to have happened, as `commit` would have.
 */
export function revokedAfter(deps: Deps, events: DomainEvent<"access.revoked">[]): void {
  deps.events.committed(
    events.map((event) => ({ event })),
    [],
  );
}
