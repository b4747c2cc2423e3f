import type { ContactInboxRow, ContactRow, InboxRow } from "../../db/schema";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { hmacSha256Hex, timingSafeEqual } from "../../lib/hmac";
import { secureToken } from "../../lib/ids";
import { browserInfo } from "./browser-info";
import {
  contactLabelTitles,
  findContactByIdentifier,
  findContactSession,
  insertContactInbox,
  markHmacVerified,
} from "./queries";
import type { PublicContactInput, WidgetEvent } from "./schema.public";
import { createContact, updateContact } from "./service";

/** A visitor's contact and the contact_inbox its source_id names. */
export type PublicSession = { contact: ContactRow; contactInbox: ContactInboxRow };

export type PresentableSession = PublicSession & { labels: string[] };

const hmacFailed = () =>
  new ApiError("unauthorized", "HMAC failed: Invalid Identifier Hash Provided");

/**
 * Identity verification (Chatwoot parity): a supplied identifier_hash must be the hex
 * HMAC-SHA256 of the identifier keyed with the inbox's hmac_token; with hmac_mandatory, an
 * identifier must come with one. Returns whether the identifier is now verified.
 */
export async function verifyIdentity(
  inbox: InboxRow,
  identifier: string | null | undefined,
  hash: string | null | undefined,
): Promise<boolean> {
  if (!hash) {
    if (inbox.hmacMandatory && identifier) {
      throw hmacFailed();
    }
    return false;
  }
  const expected = await hmacSha256Hex(inbox.hmacToken, identifier ?? "");
  if (!timingSafeEqual(expected, hash.toLowerCase())) {
    throw hmacFailed();
  }
  return true;
}

async function loadSession(deps: Deps, inboxId: number, sourceId: string) {
  const session = await findContactSession(deps.db, inboxId, sourceId);
  if (!session) {
    throw new Error("contact inbox not stored");
  }
  return session;
}

/** A new contact_inbox of an existing contact (the identifier matched). */
async function joinExisting(deps: Deps, inbox: InboxRow, contact: ContactRow, verified: boolean) {
  const [contactInbox] = await insertContactInbox(deps.db, {
    contactId: contact.id,
    inboxId: inbox.id,
    sourceId: crypto.randomUUID(),
    pubsubToken: secureToken(),
    hmacVerified: verified,
  });
  if (!contactInbox) {
    throw new Error("contact inbox not stored");
  }
  return { contact, contactInbox };
}

const identifierTaken = (err: unknown) =>
  err instanceof ApiError && err.details.some((d) => d.path === "identifier");

async function newContact(
  deps: Deps,
  inbox: InboxRow,
  input: PublicContactInput,
  origin: string,
  verified: boolean,
): Promise<PublicSession> {
  const sourceId = crypto.randomUUID();
  const create = { ...input, inbox_id: inbox.id, source_id: sourceId };
  try {
    await createContact(deps, inbox.accountId, create, origin);
  } catch (err) {
    // A concurrent create took the identifier first: join that contact instead.
    const winner =
      identifierTaken(err) && input.identifier
        ? await findContactByIdentifier(deps.db, inbox.accountId, input.identifier)
        : undefined;
    if (!winner) {
      throw err;
    }
    return joinExisting(deps, inbox, winner, verified);
  }
  const session = await loadSession(deps, inbox.id, sourceId);
  if (!verified) {
    return session;
  }
  const [contactInbox] = await markHmacVerified(deps.db, session.contactInbox.id, deps.now());
  return { ...session, contactInbox: contactInbox ?? session.contactInbox };
}

/**
 * Chatwoot parity (ContactInboxWithContactBuilder): an identifier that names a contact of the
 * account reuses it; otherwise a new contact. Either way a new contact_inbox with a UUID
 * source_id and its own pubsub_token.
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
    ? await joinExisting(deps, inbox, existing, verified)
    : await newContact(deps, inbox, input, origin, verified);
  return { ...session, labels: await contactLabelTitles(deps.db, session.contact.id) };
}

export async function showPublicContact(deps: Deps, session: PublicSession) {
  return { ...session, labels: await contactLabelTitles(deps.db, session.contact.id) };
}

/**
 * A visitor updates its own contact; custom_attributes merge into the stored ones. A new
 * identifier follows the create's HMAC rules, and a valid hash verifies this contact_inbox.
 */
export async function updatePublicContact(
  deps: Deps,
  inbox: InboxRow,
  session: PublicSession,
  input: PublicContactInput,
  origin: string,
): Promise<PresentableSession> {
  const { contact } = session;
  const changesIdentifier =
    input.identifier !== undefined && input.identifier !== contact.identifier;
  const verified =
    changesIdentifier || input.identifier_hash
      ? await verifyIdentity(
          inbox,
          input.identifier === undefined ? contact.identifier : input.identifier,
          input.identifier_hash,
        )
      : false;
  const updated = await updateContact(deps, contact, input, origin);
  let contactInbox = session.contactInbox;
  if (verified && !contactInbox.hmacVerified) {
    const [row] = await markHmacVerified(deps.db, contactInbox.id, deps.now());
    contactInbox = row ?? contactInbox;
  }
  return {
    contact: updated,
    contactInbox,
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
