import type { AccountUserRow, UserRow } from "../../db/schema";
import type { Bindings } from "../../env";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { availabilityStatus } from "../agents/presence";
import { updateMembership } from "../agents/queries";
import { availabilityMoved } from "../assignment/hooks";
import { findMembership } from "../users/queries";

type Choice = Partial<Pick<AccountUserRow, "availability" | "autoOffline">>;

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
  await availabilityMoved(env, accountId, user.id, status);
}
