import type { AccountUserRow, UserRow } from "../../db/schema";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import { sha256Hex } from "../../lib/hmac";
import { secureToken } from "../../lib/ids";
import { assertMergedWithinBounds } from "../../lib/json-bounds";
import { deleteForOwner, findForOwner, insertTokenFor } from "../access-tokens/queries";
import { findAccount } from "../accounts/queries";
import { accessRevoked, revokedAfter, userHolder, userRevokedEverywhere } from "../live/revocation";
import { assertPermitted } from "../platform-apps/policy";
import { isPermitted, permitLastInserted, revokeAll } from "../platform-apps/queries";
import { hashPassword } from "./password";
import type { UserView } from "./presenter";
import {
  type AccountRole,
  deleteAccountUser,
  deleteInboxMembershipsInAccount,
  deleteTeamMembershipsInAccount,
  deleteUser as deleteUserRow,
  findMembership,
  findUser,
  findUserByEmail,
  insertUser,
  listAccountUsers,
  membershipsOfUser,
  type NewUser,
  updateUser as updateUserRow,
  upsertAccountUser,
  userIdByEmail,
} from "./queries";
import type { UserCreate, UserUpdate } from "./schema";

/** An email another user has (platform API and profile alike). */
export const emailTaken = () =>
  invalidField("email", "has already been taken", "Email has already been taken");

/** Loads what the user record shows besides the row: token, accounts, hmac identifier. */
export async function loadUserView(deps: Deps, user: UserRow): Promise<UserView> {
  const [token, memberships, hmacIdentifier] = await Promise.all([
    findForOwner(deps.db, "User", user.id),
    membershipsOfUser(deps.db, user.id),
    // Chatwoot keys this with an installation secret; Parley has none, so it derives a stable
    // per-user value from the user's private pubsub token.
    sha256Hex(`${user.pubsubToken}:${user.id}`),
  ]);
  return { user, accessToken: token?.token ?? "", hmacIdentifier, memberships };
}

/** A user the platform app may see, else 404. */
export async function findPermittedUser(
  deps: Deps,
  platformAppId: number,
  id: number,
): Promise<UserRow> {
  await assertPermitted(deps, platformAppId, "User", id);
  const user = await findUser(deps.db, id);
  if (!user) {
    throw new ApiError("not_found");
  }
  return user;
}

async function userValues(input: UserUpdate, current?: UserRow): Promise<Partial<NewUser>> {
  const values: Partial<NewUser> = {};
  if (input.name !== undefined) {
    values.name = input.name;
  }
  if (input.display_name !== undefined) {
    values.displayName = input.display_name || null;
  }
  if (input.email !== undefined) {
    values.email = input.email.toLowerCase();
  }
  if (input.password !== undefined) {
    values.passwordHash = await hashPassword(input.password);
  }
  if (input.custom_attributes !== undefined) {
    values.customAttributes = { ...current?.customAttributes, ...input.custom_attributes };
    assertMergedWithinBounds("custom_attributes", values.customAttributes);
  }
  return values;
}

/**
 * Chatwoot parity: creating a user whose email exists returns that user (updated with the
 * given fields) when the app already manages it; another app's user is reported as a taken
 * email, without revealing anything about it.
 */
export async function createUser(
  deps: Deps,
  platformAppId: number,
  input: UserCreate,
): Promise<UserView> {
  const email = input.email.toLowerCase();
  const existing = await findUserByEmail(deps.db, email);
  if (existing) {
    if (!(await isPermitted(deps.db, platformAppId, "User", existing.id))) {
      throw emailTaken();
    }
    return updateUser(deps, existing, input);
  }
  const { db } = deps;
  const values = { ...(await userValues(input)), pubsubToken: secureToken() } as NewUser;
  try {
    const [rows] = await db.batch([
      insertUser(db, values),
      permitLastInserted(db, platformAppId, "User"),
      insertTokenFor(db, "User", userIdByEmail(db, email), secureToken()),
    ]);
    const user = rows[0];
    if (!user) {
      throw new ApiError("internal_error");
    }
    return loadUserView(deps, user);
  } catch (err) {
    throw isUniqueViolation(err) ? emailTaken() : err;
  }
}

export async function updateUser(
  deps: Deps,
  current: UserRow,
  input: UserUpdate,
): Promise<UserView> {
  const values = await userValues(input, current);
  if (values.email !== undefined && values.email !== current.email) {
    const clash = await findUserByEmail(deps.db, values.email);
    if (clash) {
      throw emailTaken();
    }
  }
  try {
    const [row] = await updateUserRow(deps.db, current.id, { ...values, updatedAt: deps.now() });
    return loadUserView(deps, row ?? current);
  } catch (err) {
    throw isUniqueViolation(err) ? emailTaken() : err;
  }
}

/** Deletes the user; memberships cascade, the polymorphic token and grants go explicitly. */
export async function deleteUser(deps: Deps, user: UserRow): Promise<void> {
  const { db } = deps;
  await commit(
    deps,
    [
      deleteForOwner(db, "User", user.id),
      deleteUserRow(db, user.id),
      revokeAll(db, "User", user.id),
    ],
    await userRevokedEverywhere(db, user.id),
  );
}

/** An account the platform app may manage, else 404. */
export async function findPermittedAccount(deps: Deps, platformAppId: number, accountId: number) {
  await assertPermitted(deps, platformAppId, "Account", accountId);
  const account = await findAccount(deps.db, accountId);
  if (!account) {
    throw new ApiError("not_found");
  }
  return account;
}

export async function listMembers(deps: Deps, platformAppId: number, accountId: number) {
  await findPermittedAccount(deps, platformAppId, accountId);
  return listAccountUsers(deps.db, accountId);
}

/** Chatwoot parity: find-or-create the membership, then set its role. */
export async function upsertMember(
  deps: Deps,
  platformAppId: number,
  accountId: number,
  input: { user_id: number; role: AccountRole },
): Promise<AccountUserRow> {
  await findPermittedAccount(deps, platformAppId, accountId);
  await findPermittedUser(deps, platformAppId, input.user_id);
  const before = await findMembership(deps.db, accountId, input.user_id);
  const [row] = await upsertAccountUser(deps.db, accountId, input.user_id, input.role, deps.now());
  if (!row) {
    throw new ApiError("internal_error");
  }
  if (before && before.role !== row.role) {
    // A new role is a new view (an administrator sees every inbox): sockets reopen with it.
    revokedAfter(deps, [accessRevoked(accountId, [userHolder(input.user_id)])]);
  }
  return row;
}

/** Removes the user from the account, and from the account's inboxes and teams. */
export async function removeMember(
  deps: Deps,
  platformAppId: number,
  accountId: number,
  userId: number,
): Promise<void> {
  await findPermittedAccount(deps, platformAppId, accountId);
  await findPermittedUser(deps, platformAppId, userId);
  const { db } = deps;
  if (!(await findMembership(db, accountId, userId))) {
    throw new ApiError("not_found");
  }
  await commit(
    deps,
    [
      deleteAccountUser(db, accountId, userId),
      deleteInboxMembershipsInAccount(db, accountId, userId),
      deleteTeamMembershipsInAccount(db, accountId, userId),
    ],
    [accessRevoked(accountId, [userHolder(userId)])],
  );
}
