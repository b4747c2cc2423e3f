import type { AccountRow, ConversationRow } from "../../db/schema";
import type { Bindings } from "../../env";
import { createDeps, type Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { contactLimitKey } from "../../lib/limits";
import type { SocketIdentity } from "../../realtime/protocol";
import type { RoomConversation } from "../../realtime/room-typing";
import type { AccountRole, Actor } from "../access-tokens/service";
import { findAccount } from "../accounts/queries";
import { callerScope } from "../accounts/scope";
import { findBot } from "../agent-bots/queries";
import { findContactSession } from "../contacts/queries.sessions";
import { viewerOf } from "../conversations/policy";
import { findById, inboxVisibleTo } from "../conversations/queries";
import { loadOwnConversation } from "../conversations/service.public";
import { findInbox } from "../inboxes/queries";
import { findUser } from "../users/queries";

/** A socket's sender as the account or public API's auth would find them. */
export type SocketSender = {
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
 * Resolves who is on a socket, again from D1: the Worker checked them when the socket opened,
 * but an agent may have been removed, a bot detached or the account suspended since. The room
 * keeps the answer for a minute at most (senders.ts); read receipts resolve it afresh.
 */
export async function resolveSender(
  env: Bindings,
  ref: RoomConversation,
  who: SocketIdentity,
): Promise<SocketSender> {
  const deps = createDeps(env, { origin: who.origin ?? "" });
  const { db } = deps;
  const current = await findById(db, ref.id);
  // Moved to another inbox since the socket opened: its access rested on the old one.
  if (!current || current.accountId !== ref.accountId || current.inboxId !== ref.inboxId) {
    throw notFound();
  }
  if (who.role === "contact") {
    return contactSender(deps, ref, who, current.displayId);
  }
  const actor = await agentOf(deps, who);
  // The account API's own rule: membership (users) or the account served (bots), and status.
  const { account, role } = await callerScope(db, actor, ref.accountId);
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

/** A visitor: the public API's identification, by the session's source_id, and its limits. */
async function contactSender(
  deps: Deps,
  ref: RoomConversation,
  who: SocketIdentity,
  displayId: number,
): Promise<SocketSender> {
  const { db } = deps;
  // By the session's source_id, as the public API finds a visitor, not by the contact the socket
  // opened as: once that contact is merged into another, the session is the other's (its
  // conversations and contact inboxes moved there), and the socket goes on working.
  const [account, session, inbox] = await Promise.all([
    findAccount(db, ref.accountId),
    who.source ? findContactSession(db, ref.inboxId, who.source) : undefined,
    findInbox(db, ref.accountId, ref.inboxId),
  ]);
  if (!account || !session || !inbox || session.contact.accountId !== ref.accountId) {
    throw notFound();
  }
  const { contact, contactInbox } = session;
  if (account.status !== "active") {
    throw new ApiError("account_suspended");
  }
  const actor: Actor = { kind: "contact", contact, contactInbox };
  return {
    account,
    actor,
    role: "contact",
    contactLimitKey: contactLimitKey(inbox.inboxIdentifier, contactInbox.sourceId),
    // The public API's own ownership rule, by the conversation's display id.
    conversation: (d) =>
      loadOwnConversation({ deps: d, account, actor, role: "contact", origin: "" }, displayId),
  };
}

async function agentOf(deps: Deps, who: SocketIdentity): Promise<Actor> {
  if (who.kind === "agent_bot") {
    const bot = await findBot(deps.db, who.id);
    if (!bot) {
      throw notFound();
    }
    return { kind: "bot", bot };
  }
  const user = await findUser(deps.db, who.id);
  if (!user) {
    throw notFound();
  }
  return { kind: "user", user };
}
