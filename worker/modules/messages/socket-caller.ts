import type { AccountRow, ConversationRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { contactLimitKey } from "../../lib/limits";
import type { SocketIdentity } from "../../realtime/protocol";
import type { RoomConversation } from "../../realtime/room-typing";
import type { AccountRole, Actor } from "../access-tokens/service";
import { findAccount } from "../accounts/queries";
import { botServesAccount, findBot } from "../agent-bots/queries";
import { viewerOf } from "../conversations/policy";
import { findById, findContact, findContactInbox, inboxVisibleTo } from "../conversations/queries";
import { loadOwnConversation } from "../conversations/service.public";
import { findInbox } from "../inboxes/queries";
import { findMembership, findUser } from "../users/queries";

/** A socket's sender as the account or public API's auth would find them. */
export type SocketCaller = {
  account: AccountRow;
  actor: Actor;
  role: AccountRole;
  /** Visitors: the public API's rate-limit key for their session; null for agents and bots. */
  contactLimitKey: string | null;
  /** The conversation as it is now (its status decides a reopen): read for every action. */
  conversation(deps: Deps): Promise<ConversationRow>;
};

const notFound = () => new ApiError("not_found");

/**
 * Resolves who sent a frame, again from D1: the Worker checked them when the socket opened,
 * but an agent may have been removed, a bot detached or the account suspended since.
 */
export async function socketCaller(
  deps: Deps,
  ref: RoomConversation,
  who: SocketIdentity,
): Promise<SocketCaller> {
  const { db } = deps;
  const [account, current] = await Promise.all([
    findAccount(db, ref.accountId),
    findById(db, ref.id),
  ]);
  if (!account || !current || current.accountId !== ref.accountId) {
    throw notFound();
  }
  if (account.status !== "active") {
    throw new ApiError("account_suspended");
  }
  if (who.role === "contact") {
    const [contact, inbox, contactInbox] = await Promise.all([
      findContact(db, ref.accountId, who.id),
      findInbox(db, ref.accountId, ref.inboxId),
      who.source ? findContactInbox(db, ref.inboxId, who.source) : undefined,
    ]);
    if (!contact || !inbox || contactInbox?.contactId !== contact.id) {
      throw notFound();
    }
    const actor: Actor = { kind: "contact", contact, contactInbox };
    return {
      account,
      actor,
      role: "contact",
      contactLimitKey: contactLimitKey(inbox.inboxIdentifier, contactInbox.sourceId),
      // The public API's own ownership rule, by the conversation's display id.
      conversation: (d) =>
        loadOwnConversation(
          { deps: d, account, actor, role: "contact", origin: "" },
          current.displayId,
        ),
    };
  }
  const { actor, role } = await agentOf(deps, account, who);
  if (!(await inboxVisibleTo(db, viewerOf({ actor, role }), ref.inboxId))) {
    throw notFound();
  }
  return {
    account,
    actor,
    role,
    contactLimitKey: null,
    conversation: async (d) => {
      const row = await findById(d.db, ref.id);
      if (!row || row.accountId !== ref.accountId) {
        throw notFound();
      }
      return row;
    },
  };
}

async function agentOf(
  deps: Deps,
  account: AccountRow,
  who: SocketIdentity,
): Promise<{ actor: Actor; role: AccountRole }> {
  if (who.kind === "agent_bot") {
    const bot = await findBot(deps.db, who.id);
    if (!bot || !(await botServesAccount(deps.db, bot, account.id))) {
      throw notFound();
    }
    return { actor: { kind: "bot", bot }, role: "bot" };
  }
  const [user, membership] = await Promise.all([
    findUser(deps.db, who.id),
    findMembership(deps.db, account.id, who.id),
  ]);
  if (!user || !membership) {
    throw notFound();
  }
  return { actor: { kind: "user", user }, role: membership.role };
}
