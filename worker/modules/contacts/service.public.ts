import type { ContactInboxRow, ContactRow, InboxRow } from "../../db/schema";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { secureToken } from "../../lib/ids";
import { assertMergedWithinBounds } from "../../lib/json-bounds";
import { pickDefined } from "../../lib/patch";
import { validateCustomAttributes } from "../custom-attributes/validate";
import { browserInfo } from "./browser-info";
import { mergePatch } from "./events";
import { contactLabelTitles, insertContactInbox } from "./queries";
import { findContactByIdentifier, findContactSession, updateSession } from "./queries.sessions";
import type { PublicContactInput, WidgetEvent } from "./schema.public";
import { createContact, updateContact } from "./service";
import { isRestrictedSession, verifyIdentity } from "./sessions";

/** A visitor's contact and the contact_inbox its source_id names. */
export type PublicSession = { contact: ContactRow; contactInbox: ContactInboxRow };

export type PresentableSession = PublicSession & { labels: string[] };

async function loadSession(deps: Deps, inboxId: number, sourceId: string) {
  const session = await findContactSession(deps.db, inboxId, sourceId);
  if (!session) {
    throw new Error("contact inbox not stored");
  }
  return session;
}

/** The profile fields a session may claim for itself without writing them to the contact. */
type Claims = Pick<PublicContactInput, "name" | "email" | "phone_number" | "custom_attributes">;

/** The claimable fields of `input` (custom attributes validated as for the contact itself). */
async function claimsOf(deps: Deps, accountId: number, input: PublicContactInput) {
  const claims = pickDefined(input, {
    name: "name",
    email: "email",
    phone_number: "phone_number",
  } as const) as Claims;
  if (input.custom_attributes) {
    claims.custom_attributes = await validateCustomAttributes(
      deps,
      accountId,
      "contact_attribute",
      input.custom_attributes,
    );
  }
  return claims;
}

/**
 * A new contact_inbox of an existing contact (the identifier matched). Unverified, it is a
 * restricted session: what it sent is kept as its own claims, never written to the contact.
 */
async function joinExisting(
  deps: Deps,
  inbox: InboxRow,
  contact: ContactRow,
  verified: boolean,
  input: PublicContactInput,
) {
  const claimed = verified ? {} : await claimsOf(deps, inbox.accountId, input);
  const [contactInbox] = await insertContactInbox(deps.db, {
    contactId: contact.id,
    inboxId: inbox.id,
    sourceId: crypto.randomUUID(),
    pubsubToken: secureToken(),
    hmacVerified: verified,
    joinedByIdentifier: !verified,
    claimed,
  });
  if (!contactInbox) {
    throw new Error("contact inbox not stored");
  }
  return { contact, contactInbox };
}

const takenAt = (err: unknown, path: string) =>
  err instanceof ApiError && err.details.some((d) => d.path === path);

/**
 * Runs a write of the visitor's fields; if its email is another contact's, runs it again
 * without the email, which becomes the session's claim instead: the public API never says
 * which emails the account knows ("Email has already been taken" is the account API's).
 */
async function withEmailClaim<T>(
  input: PublicContactInput,
  write: (input: PublicContactInput) => Promise<T>,
): Promise<{ result: T; claims?: Claims }> {
  try {
    return { result: await write(input) };
  } catch (err) {
    if (!(input.email && takenAt(err, "email"))) {
      throw err;
    }
    const { email, ...rest } = input;
    return { result: await write(rest), claims: { email } };
  }
}

async function newContact(
  deps: Deps,
  inbox: InboxRow,
  input: PublicContactInput,
  origin: string,
  verified: boolean,
): Promise<PublicSession> {
  const sourceId = crypto.randomUUID();
  let claims: Claims | undefined;
  try {
    ({ claims } = await withEmailClaim(input, (body) =>
      createContact(
        deps,
        inbox.accountId,
        { ...body, inbox_id: inbox.id, source_id: sourceId },
        origin,
      ),
    ));
  } catch (err) {
    // A concurrent create took the identifier first: join that contact instead.
    const winner =
      takenAt(err, "identifier") && input.identifier
        ? await findContactByIdentifier(deps.db, inbox.accountId, input.identifier)
        : undefined;
    if (!winner) {
      throw err;
    }
    return joinExisting(deps, inbox, winner, verified, input);
  }
  const session = await loadSession(deps, inbox.id, sourceId);
  if (!(verified || claims)) {
    return session;
  }
  const [contactInbox] = await updateSession(deps.db, session.contactInbox.id, deps.now(), {
    ...(verified && { verified: true as const }),
    ...(claims && { claims }),
  });
  return { ...session, contactInbox: contactInbox ?? session.contactInbox };
}

/**
 * Chatwoot parity (ContactInboxWithContactBuilder): an identifier that names a contact of the
 * account reuses it; otherwise a new contact. Either way a new contact_inbox with a UUID
 * source_id and its own pubsub_token. Without a verified identifier_hash the join is a
 * restricted session (presenter.public.ts): it is answered with what it sent, nothing more.
 */
export async function createPublicContact(
  deps: Deps,
  inbox: InboxRow,
  input: PublicContactInput,
  origin: string,
): Promise<PresentableSession> {
  const verified = await verifyIdentity(inbox, input.identifier, input.identifier_hash);
  const existing = input.identifier
    ? await findContactByIdentifier(deps.db, inbox.accountId, input.identifier)
    : undefined;
  const session = existing
    ? await joinExisting(deps, inbox, existing, verified, input)
    : await newContact(deps, inbox, input, origin, verified);
  return { ...session, labels: await contactLabelTitles(deps.db, session.contact.id) };
}

export async function showPublicContact(deps: Deps, session: PublicSession) {
  return { ...session, labels: await contactLabelTitles(deps.db, session.contact.id) };
}

const cannotChangeIdentifier = () =>
  new ApiError(
    "forbidden",
    "This session joined its contact by an identifier it has not verified: it cannot change " +
      "the identifier (send identifier_hash to verify it, or start a new session)",
  );

/** The claims a write to the contact makes stale: the fields now stored are the truth. */
const staleClaims = (input: PublicContactInput) =>
  Object.fromEntries(
    (["name", "email", "phone_number"] as const)
      .filter((k) => input[k] !== undefined)
      .map((k) => [k, null]),
  );

/**
 * A visitor updates its own contact; custom_attributes merge into the stored ones. A new
 * identifier follows the create's HMAC rules, and a valid hash verifies this contact_inbox.
 * A restricted session (joined by an unverified identifier) changes only its own claims; a
 * valid hash for its identifier lifts the restriction first.
 */
export async function updatePublicContact(
  deps: Deps,
  inbox: InboxRow,
  session: PublicSession,
  input: PublicContactInput,
  origin: string,
): Promise<PresentableSession> {
  const { contact } = session;
  const restricted = isRestrictedSession(session.contactInbox);
  const changesIdentifier =
    input.identifier !== undefined && input.identifier !== contact.identifier;
  if (restricted && changesIdentifier) {
    throw cannotChangeIdentifier();
  }
  const verified =
    changesIdentifier || input.identifier_hash
      ? await verifyIdentity(
          inbox,
          input.identifier === undefined ? contact.identifier : input.identifier,
          input.identifier_hash,
        )
      : false;
  if (restricted && !verified) {
    const claims = await claimsOf(deps, inbox.accountId, input);
    // The session's claims grow by merging too: bounded as a whole.
    const merged = mergePatch(session.contactInbox.claimed, claims as Record<string, unknown>);
    assertMergedWithinBounds("custom_attributes", merged);
    const [row] = await updateSession(deps.db, session.contactInbox.id, deps.now(), { claims });
    return { contact, contactInbox: row ?? session.contactInbox, labels: [] };
  }
  const { result: updated, claims } = await withEmailClaim(input, (body) =>
    updateContact(deps, contact, body, origin),
  );
  const [row] = await updateSession(deps.db, session.contactInbox.id, deps.now(), {
    ...(verified && { verified: true as const }),
    // A session that has just verified drops its claims: the contact is its own now.
    ...(restricted
      ? { replaceClaims: claims ?? {} }
      : { claims: { ...staleClaims(input), ...claims } }),
  });
  return {
    contact: updated,
    contactInbox: row ?? session.contactInbox,
    labels: await contactLabelTitles(deps.db, updated.id),
  };
}

/**
 * Chatwoot parity: the widget reports being opened; nothing is stored but the outbox row, which
 * becomes webwidget_triggered for webhooks and the inbox's agent bot.
 */
export async function recordWidgetEvent(
  deps: Deps,
  inbox: InboxRow,
  contactInbox: ContactInboxRow,
  input: WidgetEvent,
  userAgent?: string,
): Promise<void> {
  const info = input.event_info ?? {};
  const browser = info.browser ?? browserInfo(userAgent);
  await commit(
    deps,
    [],
    [
      {
        name: "webwidget.triggered",
        accountId: inbox.accountId,
        data: {
          contact_id: contactInbox.contactId,
          contact_inbox_id: contactInbox.id,
          inbox_id: inbox.id,
          event_info: browser ? { ...info, browser } : info,
        },
      },
    ],
  );
}
