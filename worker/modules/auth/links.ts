import type { LinkPurpose, OneTimeLinkRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { invalidField } from "../../lib/errors";
import { sha256Hex } from "../../lib/hmac";
import { secureToken } from "../../lib/ids";
import { mailBaseUrl } from "../../lib/public-url";
import { claimLink, deleteSupersededLinks, findLiveLink, insertLink } from "./queries";

const HOUR = 3600;

/** How long a mailed link works: an invitation waits a week, a reset a few hours. */
export const LINK_TTL_SECONDS = {
  invitation: 7 * 24 * HOUR,
  reset: 6 * HOUR,
  /** A platform's sign-in link is opened at once by the browser it is handed to (Chatwoot: 5 min). */
  sso: 5 * 60,
} as const;

/** Where each link opens: pages the Worker serves (modules/auth/pages.ts). */
export const LINK_PATHS = {
  set_password: "/app/auth/password/edit?reset_password_token=",
  join_account: "/app/auth/invitation?invitation_token=",
  // In the fragment: a browser never sends it, so no server or proxy log holds the token.
  // The agents' app exchanges it (POST /auth/sso) and drops it from the address bar.
  sso_login: "/app/login#sso_auth_token=",
} as const satisfies Record<LinkPurpose, string>;

/** ~250 bits of base58: guessing one is out of reach even without the rate limits. */
const TOKEN_LENGTH = 43;

type Invitation = { accountId: number; role: "agent" | "administrator"; inviterId: number };

/**
 * A new link for the user; the token goes into the mail only, the table keeps its SHA-256.
 * Answers the absolute URL to mail, always on PUBLIC_URL: never the request's origin, whose Host
 * header any client chooses (a forged one would carry a live token to its own server). Without
 * a valid PUBLIC_URL no link is made and null is answered: the caller mails nothing, and the
 * refusal is logged (the startup warning, env.ts, said so already).
 */
export async function issueLink(
  deps: Deps,
  purpose: LinkPurpose,
  userId: number,
  ttlSeconds: number,
  invitation?: Invitation,
): Promise<string | null> {
  const base = mailBaseUrl(deps.env.PUBLIC_URL);
  if (base === null) {
    deps.log.error("mail not sent: PUBLIC_URL is not set to the service's public URL", {
      purpose,
      user_id: userId,
    });
    return null;
  }
  const token = secureToken(TOKEN_LENGTH);
  const now = deps.now();
  const accountId = invitation?.accountId ?? null;
  await deps.db.batch([
    deleteSupersededLinks(deps.db, userId, purpose, accountId, now),
    insertLink(deps.db, {
      purpose,
      userId,
      accountId,
      role: invitation?.role ?? null,
      inviterId: invitation?.inviterId ?? null,
      tokenHash: await sha256Hex(token),
      expiresAt: now + ttlSeconds,
    }),
  ]);
  return `${base}${LINK_PATHS[purpose]}${token}`;
}

const TOKEN_SHAPE = /^[1-9A-HJ-NP-Za-km-z]{1,64}$/;

/** The live link a token names, or null (unknown, used, expired, or not a token at all). */
export async function findLink(
  deps: Deps,
  purpose: LinkPurpose,
  token: string | undefined,
): Promise<OneTimeLinkRow | null> {
  if (!token || !TOKEN_SHAPE.test(token)) {
    return null;
  }
  return (await findLiveLink(deps.db, await sha256Hex(token), purpose, deps.now())) ?? null;
}

export const linkInvalid = (field: string) =>
  invalidField(field, "is invalid or has expired", "This link is invalid or has expired");

/** Finds and takes the link in one go, so it works once; a second use is `linkInvalid`. */
export async function useLink(
  deps: Deps,
  purpose: LinkPurpose,
  token: string | undefined,
  field: string,
): Promise<OneTimeLinkRow> {
  const link = await findLink(deps, purpose, token);
  if (!link || (await claimLink(deps.db, link.id)).length === 0) {
    throw linkInvalid(field);
  }
  return link;
}
