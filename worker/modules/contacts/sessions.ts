import type { ContactInboxRow, ContactRow, InboxRow } from "../../db/schema";
import type { CloseSessionsMessage } from "../../env";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { hmacSha256Hex, timingSafeEqual } from "../../lib/hmac";
import { roomFor } from "../conversation-room/stub";
import { findInboxById } from "../inboxes/queries.public";
import { unverifiedIdentifiedRooms } from "./queries.sessions";

/**
 * The rules of a public-API session (a contact_inbox held by a visitor) beyond its existence;
 * docs/public-api.md "Identity verification".
 */

/**
 * A session that joined an existing contact by an identifier it has not verified: until it
 * verifies, the contact's personal fields are not its to read or change.
 */
export const isRestrictedSession = (
  s: Pick<ContactInboxRow, "joinedByIdentifier" | "hmacVerified">,
) => s.joinedByIdentifier && !s.hmacVerified;

/**
 * With hmac_mandatory on, an identified contact answers only sessions that proved its
 * identifier: an unverified session of a contact with an identifier (joined by it, created
 * with it before the switch, or identified since) has ended. Anonymous visitors go on.
 */
export const sessionEnded = (
  inbox: Pick<InboxRow, "hmacMandatory">,
  contact: Pick<ContactRow, "identifier">,
  session: Pick<ContactInboxRow, "hmacVerified">,
) => inbox.hmacMandatory && !session.hmacVerified && contact.identifier !== null;

export const sessionEndedError = () =>
  new ApiError(
    "unauthorized",
    "This inbox requires identity verification: start a new session with identifier_hash",
  );

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

/**
 * Rooms closed per call: each is a Durable Object call, so the PATCH that switches
 * hmac_mandatory on (or one TIMED message) makes at most this many whatever the inbox's size.
 */
export const CLOSE_PAGE = 50;

/**
 * The inbox has just switched hmac_mandatory on: the open visitor sockets of the sessions that
 * ended (sessionEnded) close now, a page of rooms at a time; the rooms after a full page go on
 * in a TIMED message (`closeEndedSessionsLater`). Their HTTP calls and reconnections are
 * refused on their own meanwhile. Answers how many sockets this page closed.
 */
export async function closeEndedSessions(
  deps: Deps,
  inbox: InboxRow,
  after = 0,
  limit = CLOSE_PAGE,
): Promise<number> {
  const page = await unverifiedIdentifiedRooms(deps.db, inbox.id, after, limit);
  const rooms = new Map<number, string[]>();
  for (const r of page) {
    rooms.set(r.conversationId, [...(rooms.get(r.conversationId) ?? []), r.sourceId]);
  }
  const closed = await Promise.all(
    [...rooms].map(([id, sources]) =>
      roomFor(deps.env, inbox.accountId, id).closeVisitorSessions(sources),
    ),
  );
  const last = page.at(-1);
  if (page.length === limit && last) {
    await deps.env.TIMED.send({
      kind: "timed",
      task: "close_sessions",
      at: deps.now(),
      inboxId: inbox.id,
      after: last.conversationId,
    });
  }
  return closed.reduce((a, b) => a + b, 0);
}

/**
 * A TIMED message's page of the close: only while the inbox still has hmac_mandatory on (an
 * administrator who switched it off again meanwhile ended nothing).
 */
export async function closeEndedSessionsLater(
  deps: Deps,
  message: CloseSessionsMessage,
  limit = CLOSE_PAGE,
): Promise<number> {
  const inbox = await findInboxById(deps.db, message.inboxId);
  return inbox?.hmacMandatory ? closeEndedSessions(deps, inbox, message.after, limit) : 0;
}
