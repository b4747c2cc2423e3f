import type { UserRow } from "../../db/schema";
import type { Bindings } from "../../env";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { secureToken } from "../../lib/ids";
import { assertMergedWithinBounds } from "../../lib/json-bounds";
import { upsertToken } from "../access-tokens/queries";
import { assertCurrentPassword } from "../auth/service";
import { throttled } from "../auth/throttle";
import { userRevokedEverywhere } from "../live/revocation";
import { hashPassword } from "../users/password";
import { findUserByEmail, type NewUser, updateUser } from "../users/queries";
import { emailTaken } from "../users/service";
import type { ProfileUpdate } from "./schema";

/**
 * The user changes their own record. A new email or password needs the current password, so a
 * leaked API token alone cannot take the account over.
 */
export async function updateProfile(
  deps: Deps,
  user: UserRow,
  input: ProfileUpdate,
  from: { env: Bindings; ip: string },
): Promise<UserRow> {
  const newEmail = input.email !== undefined && input.email !== user.email.toLowerCase();
  if (newEmail || input.password !== undefined) {
    // Throttled as sign-in is: a stolen token must not become a password oracle.
    await throttled(deps, from.env, { email: user.email, ip: from.ip }, () =>
      assertCurrentPassword(user, input.current_password),
    );
  }
  const values: Partial<NewUser> = { updatedAt: deps.now() };
  if (input.name !== undefined) {
    values.name = input.name;
  }
  if (input.display_name !== undefined) {
    values.displayName = input.display_name || null;
  }
  if (input.message_signature !== undefined) {
    values.messageSignature = input.message_signature;
  }
  if (input.ui_settings !== undefined) {
    values.uiSettings = { ...user.uiSettings, ...input.ui_settings };
    assertMergedWithinBounds("ui_settings", values.uiSettings);
  }
  if (input.password !== undefined) {
    values.passwordHash = await hashPassword(input.password);
  }
  if (newEmail && input.email) {
    if (await findUserByEmail(deps.db, input.email)) {
      throw emailTaken();
    }
    values.email = input.email;
  }
  try {
    const [row] = await updateUser(deps.db, user.id, values);
    return row ?? user;
  } catch (err) {
    throw isUniqueViolation(err) ? emailTaken() : err;
  }
}

/**
 * A new access token at once; the old one stops working (other isolates: within seconds), and
 * the sockets opened with it close before the answer leaves.
 */
export async function resetAccessToken(deps: Deps, user: UserRow): Promise<void> {
  await commit(
    deps,
    [upsertToken(deps.db, "User", user.id, secureToken(), deps.now())],
    await userRevokedEverywhere(deps.db, user.id),
  );
}
