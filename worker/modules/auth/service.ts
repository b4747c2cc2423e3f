import type { UserRow } from "../../db/schema";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import { ApiError, invalidField } from "../../lib/errors";
import { secureToken } from "../../lib/ids";
import { bindingMailer, type Mail } from "../../lib/mail";
import { upsertToken } from "../access-tokens/queries";
import { findAccount } from "../accounts/queries";
import { auditStatement } from "../audit-logs/service";
import { userRevokedEverywhere } from "../live/revocation";
import { hashPassword, verifyPassword } from "../users/password";
import { findUser, findUserByEmail, membershipsOfUser, updateUser } from "../users/queries";
import { findLink, issueLink, LINK_TTL_SECONDS, linkInvalid, useLink } from "./links";
import { resetMail } from "./mail";
import { deleteUserLinks, joinAccount } from "./queries";

/**
 * A well-formed hash of no password anyone knows: an unknown email is checked against it, so
 * a sign-in takes the same ~100k PBKDF2 rounds whether the email exists or not.
 */
const NOBODY =
  "pbkdf2_sha256$100000$bm8tdXNlci1zYWx0LTE2Yg==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

/** The user whose email and password match; any mismatch is the same 401, by design. */
export async function signIn(deps: Deps, email: string, password: string): Promise<UserRow> {
  const user = await findUserByEmail(deps.db, email);
  const matches = await verifyPassword(password, user?.passwordHash ?? NOBODY);
  if (!(user?.passwordHash && matches)) {
    throw new ApiError("invalid_credentials");
  }
  await auditSignIn(deps, user);
  return user;
}

/** Chatwoot (Enterprise SessionsController): a sign_in row in each of the user's accounts. */
async function auditSignIn(deps: Deps, user: UserRow) {
  const who = { userId: user.id, ip: deps.remoteAddress };
  const rows = (await membershipsOfUser(deps.db, user.id)).map(({ account }) =>
    auditStatement(deps.db, who, {
      accountId: account.id,
      action: "sign_in",
      type: "User",
      id: user.id,
      changes: {},
      at: deps.now(),
    }),
  );
  const [first, ...rest] = rows;
  if (first) {
    await deps.db.batch([first, ...rest]);
  }
}

/** Mails are best effort: a failed send is logged, and the user can always ask again. */
export async function sendMail(deps: Deps, mail: Mail): Promise<void> {
  try {
    await bindingMailer(deps.env, (entry) => deps.log.warn(String(entry.msg), entry)).send(mail);
  } catch (err) {
    deps.log.error("mail not sent", { subject: mail.subject, error: err });
  }
}

/**
 * Mails a reset link when the email has a user. The route runs this after its answer
 * (waitUntil), for every email alike: the answer, and the time it takes, say nothing of whether
 * the email has an account. Never throws: nobody is left to hear it.
 */
export async function requestPasswordReset(deps: Deps, email: string): Promise<void> {
  try {
    const user = await findUserByEmail(deps.db, email);
    if (!user) {
      return;
    }
    const url = await issueLink(deps, "set_password", user.id, LINK_TTL_SECONDS.reset);
    if (url) {
      await sendMail(deps, resetMail(user.email, url));
    }
  } catch (err) {
    deps.log.error("password reset request failed", { error: err });
  }
}

/** Sets the password through a mailed link (invitation or reset); the link works once. */
export async function setPasswordWithLink(
  deps: Deps,
  token: string | undefined,
  password: string,
): Promise<UserRow> {
  const link = await useLink(deps, "set_password", token, "reset_password_token");
  const user = await findUser(deps.db, link.userId);
  if (!user) {
    throw linkInvalid("reset_password_token");
  }
  await commit(
    deps,
    [
      // A password chosen through a mailed link also confirms the address.
      updateUser(deps.db, user.id, {
        passwordHash: await hashPassword(password),
        confirmed: true,
        updatedAt: deps.now(),
      }),
      deleteUserLinks(deps.db, user.id, "set_password"),
      // Whoever reset the password may be taking the account back: the old API token and the
      // sockets opened with it end too.
      upsertToken(deps.db, "User", user.id, secureToken(), deps.now()),
    ],
    await userRevokedEverywhere(deps.db, user.id),
  );
  return user;
}

/**
 * Signs in with a platform's one-time link (GET /platform/api/v1/users/{id}/login): the token
 * works once, for five minutes, and answers the user as a password sign-in does.
 */
export async function signInWithSsoLink(deps: Deps, token: string): Promise<UserRow> {
  const link = await useLink(deps, "sso_login", token, "sso_auth_token");
  const user = await findUser(deps.db, link.userId);
  if (!user) {
    throw linkInvalid("sso_auth_token");
  }
  return user;
}

/**
 * A platform's sign-in URL for one of its users: `{PUBLIC_URL}/app/login#sso_auth_token=…`, a new
 * link replacing the user's earlier one. Built on PUBLIC_URL only (never the request's Host);
 * without a valid one there is no URL to give.
 */
export async function ssoLoginUrl(deps: Deps, userId: number): Promise<string> {
  const url = await issueLink(deps, "sso_login", userId, LINK_TTL_SECONDS.sso);
  if (url === null) {
    throw new ApiError(
      "internal_error",
      "PUBLIC_URL is not set to the service's public URL: no sign-in link can be made",
    );
  }
  return url;
}

/** What an invitation page shows before it is accepted: the account's name, nothing else. */
export async function invitationFor(deps: Deps, token: string | undefined) {
  const link = await findLink(deps, "join_account", token);
  const account = link?.accountId ? await findAccount(deps.db, link.accountId) : undefined;
  if (!link || !account) {
    throw linkInvalid("invitation_token");
  }
  return { accountName: account.name, role: link.role ?? "agent" };
}

/** The invited user joins the account with the role the inviter chose; the link works once. */
export async function acceptInvitation(deps: Deps, token: string | undefined) {
  const link = await useLink(deps, "join_account", token, "invitation_token");
  const account = link.accountId ? await findAccount(deps.db, link.accountId) : undefined;
  if (!account) {
    throw linkInvalid("invitation_token");
  }
  await joinAccount(deps.db, {
    accountId: account.id,
    userId: link.userId,
    role: link.role ?? "agent",
    inviterId: link.inviterId,
  });
  return { accountName: account.name };
}

/** Profile changes of the email or password need the current password. */
export async function assertCurrentPassword(user: UserRow, current: string | undefined) {
  if (!current || !user.passwordHash || !(await verifyPassword(current, user.passwordHash))) {
    throw invalidField("current_password", "is invalid", "Current password is invalid");
  }
}
