import type { AccountUserRow, UserRow } from "../../db/schema";
import type { Bindings } from "../../env";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import type { Frame } from "../../realtime/protocol";
import { availabilityStatus } from "../agents/presence";
import { updateMembership } from "../agents/queries";
import { autoAssigningInboxesOf } from "../assignment/queries";
import { drainInbox } from "../assignment/service";
import { feedFor } from "../live/stubs";
import { findMembership } from "../users/queries";

type Choice = Partial<Pick<AccountUserRow, "availability" | "autoOffline">>;

/** Chatwoot's `presence.update` (the feed's presence sends the same for sockets). */
export const presenceFrame = (
  accountId: number,
  userId: number,
  status: AccountUserRow["availability"],
): Frame => ({
  event: "presence.update",
  data: { account_id: accountId, users: { [userId]: status } },
});

/**
 * The agent chooses, in one of their accounts, their availability or whether they go offline
 * without a socket (Chatwoot's POST /profile/availability and /profile/auto_offline). What they
 * choose beyond online stands whatever their sockets (agents/presence.ts). When what others see
 * changes, every listener of the account's feed gets `presence.update`; an agent who becomes
 * online takes from their inboxes' assignment queues, as one who connects does.
 */
export async function chooseOwnPresence(
  deps: Deps,
  env: Bindings,
  user: UserRow,
  accountId: number,
  choice: Choice,
): Promise<void> {
  const before = await findMembership(deps.db, accountId, user.id);
  if (!before) {
    // Chatwoot: account_users.find_by! → 404; another account's id learns nothing.
    throw new ApiError("not_found");
  }
  const [after] = await updateMembership(deps.db, accountId, user.id, {
    ...choice,
    updatedAt: deps.now(),
  });
  if (!after) {
    throw new ApiError("not_found");
  }
  const status = availabilityStatus(after);
  if (status === availabilityStatus(before)) {
    return;
  }
  await feedFor(env, accountId).publish({
    frame: presenceFrame(accountId, user.id, status),
    inboxId: null,
  });
  if (status === "online") {
    await drainAssignments(env, deps, accountId, user.id);
  }
}

async function drainAssignments(env: Bindings, deps: Deps, accountId: number, userId: number) {
  for (const { inboxId } of await autoAssigningInboxesOf(deps.db, accountId, userId)) {
    await drainInbox(env, inboxId, deps.now());
  }
}
