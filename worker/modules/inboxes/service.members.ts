import type { InboxRow } from "../../db/schema";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import { ApiError, invalidField } from "../../lib/errors";
import { accountMemberIds } from "../agents/queries";
import { memberAuditRows } from "../audit-logs/service";
import { accessRevoked, userHolder } from "../live/revocation";
import {
  addInboxMembers,
  findInbox,
  inboxMemberIds,
  listInboxMembers,
  removeInboxMembers,
  runBatch,
} from "./queries";

/** Who leaves the inbox loses its conversations: their sockets there close with the change. */
const leavingInbox = (inbox: InboxRow, userIds: number[]) =>
  userIds.length === 0 ? [] : [accessRevoked(inbox.accountId, userIds.map(userHolder), inbox.id)];

export async function loadInbox(deps: Deps, accountId: number, inboxId: number): Promise<InboxRow> {
  const inbox = await findInbox(deps.db, accountId, inboxId);
  if (!inbox) {
    throw new ApiError("not_found");
  }
  return inbox;
}

export const listMembers = (deps: Deps, inbox: InboxRow) =>
  listInboxMembers(deps.db, inbox.accountId, inbox.id);

/** Every id must be a user of this account; the error names the others and nothing changes. */
async function accountUserIds(deps: Deps, accountId: number, userIds: number[]): Promise<number[]> {
  const ids = [...new Set(userIds)];
  const known = await accountMemberIds(deps.db, accountId, ids);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const message = `${unknown.join(", ")} ${unknown.length === 1 ? "is not a user" : "are not users"} of this account`;
    throw invalidField("user_ids", message, `user_ids: ${message}`);
  }
  return ids;
}

const memberAudits = (deps: Deps, inbox: InboxRow, action: "create" | "destroy", ids: number[]) =>
  memberAuditRows(deps, inbox.accountId, "InboxMember", action, { inbox_id: inbox.id }, ids);

/** Chatwoot parity (POST): adds the listed users; nobody is removed. */
export async function addMembers(deps: Deps, inbox: InboxRow, userIds: number[]) {
  const ids = await accountUserIds(deps, inbox.accountId, userIds);
  const current = new Set(await inboxMemberIds(deps.db, inbox.id));
  const added = ids.filter((id) => !current.has(id));
  await runBatch(deps.db, [
    ...addInboxMembers(deps.db, inbox.id, ids),
    ...memberAudits(deps, inbox, "create", added),
  ]);
  return listMembers(deps, inbox);
}

/** Chatwoot parity (PATCH, E8): the listed users become the whole membership, in one batch. */
export async function replaceMembers(deps: Deps, inbox: InboxRow, userIds: number[]) {
  const { db } = deps;
  const ids = await accountUserIds(deps, inbox.accountId, userIds);
  const keep = new Set(ids);
  const current = await inboxMemberIds(db, inbox.id);
  const leaving = current.filter((id) => !keep.has(id));
  const added = ids.filter((id) => !current.includes(id));
  await commit(
    deps,
    [
      ...removeInboxMembers(db, inbox.id, leaving),
      ...addInboxMembers(db, inbox.id, ids),
      ...memberAudits(deps, inbox, "create", added),
      ...memberAudits(deps, inbox, "destroy", leaving),
    ],
    leavingInbox(inbox, leaving),
  );
  return listMembers(deps, inbox);
}

export async function removeMembers(deps: Deps, inbox: InboxRow, userIds: number[]) {
  const ids = await accountUserIds(deps, inbox.accountId, userIds);
  const current = new Set(await inboxMemberIds(deps.db, inbox.id));
  const leaving = ids.filter((id) => current.has(id));
  await commit(
    deps,
    [
      ...removeInboxMembers(deps.db, inbox.id, ids),
      ...memberAudits(deps, inbox, "destroy", leaving),
    ],
    leavingInbox(inbox, ids),
  );
}
