import { and, eq, exists, inArray, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, accountUsers, conversations } from "../../db/schema";
import type { AccountRole, Actor } from "../access-tokens/service";
import { viewerOf } from "../conversations/policy";
import { ownedByContact, visibleInboxIds } from "../conversations/queries";

/**
 * What a socket sender's access rests on, as a condition on the conversation row that its
 * message's insert re-checks in its own batch: the conversation is still this account's and in
 * this inbox, the account is active, and the sender may still write there (a user's membership
 * and role, the inboxes an agent or bot may see, a visitor's ownership). The room answers
 * messages from cached callers and rows; this is why a removed agent or a moved conversation is
 * refused at once instead of when those caches expire.
 */
export function senderGuard(
  db: Db,
  caller: { actor: Actor; role: AccountRole },
  ref: { accountId: number; inboxId: number },
): SQL {
  const viewer = viewerOf(caller);
  const visible = visibleInboxIds(db, viewer);
  const { actor } = caller;
  return and(
    eq(conversations.accountId, ref.accountId),
    eq(conversations.inboxId, ref.inboxId),
    exists(
      db
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.id, ref.accountId), eq(accounts.status, "active"))),
    ),
    actor.kind === "user"
      ? exists(
          db
            .select({ id: accountUsers.userId })
            .from(accountUsers)
            .where(
              and(
                eq(accountUsers.accountId, ref.accountId),
                eq(accountUsers.userId, actor.user.id),
                caller.role === "administrator"
                  ? eq(accountUsers.role, "administrator")
                  : undefined,
              ),
            ),
        )
      : undefined,
    viewer.kind === "contact" ? ownedByContact(db, viewer) : undefined,
    visible ? inArray(conversations.inboxId, visible) : undefined,
  ) as SQL;
}
