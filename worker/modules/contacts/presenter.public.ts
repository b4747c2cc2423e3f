import type { ContactInboxRow, ContactRow } from "../../db/schema";
import type { PublicContact, PublicContactSession } from "./schema.public";
import { isRestrictedSession } from "./sessions";

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The public API's full contact (Chatwoot renders the raw model: ISO 8601 timestamps). */
export function presentPublicContact(row: ContactRow, labels: readonly string[]): PublicContact {
  return {
    id: row.id,
    account_id: row.accountId,
    company_id: null,
    name: row.name,
    email: row.email,
    phone_number: row.phoneNumber,
    identifier: row.identifier,
    contact_type: row.contactType,
    country_code: row.countryCode,
    last_activity_at: row.lastActivityAt === null ? null : iso(row.lastActivityAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    last_name: row.lastName,
    middle_name: row.middleName,
    location: row.location,
    blocked: row.blocked,
    additional_attributes: row.additionalAttributes,
    custom_attributes: row.customAttributes,
    label_list: [...labels],
  };
}

type Session = Pick<
  ContactInboxRow,
  "joinedByIdentifier" | "hmacVerified" | "claimed" | "createdAt" | "updatedAt"
>;

/**
 * What a restricted session sees of its contact: the id, the identifier it gave, whether the
 * contact is blocked (which decides what it may do); every personal field empty, times its own.
 */
function restrictedView(row: ContactRow, session: Session): PublicContact {
  return {
    ...presentPublicContact(row, []),
    name: "",
    email: null,
    phone_number: null,
    contact_type: "visitor",
    country_code: null,
    last_activity_at: null,
    created_at: iso(session.createdAt),
    updated_at: iso(session.updatedAt),
    last_name: null,
    middle_name: null,
    location: null,
    additional_attributes: {},
    custom_attributes: {},
  };
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The contact as one session sees it: a restricted session its restricted view; then whatever
 * the session said that was not written to the contact (its claims) over it.
 */
export function presentContactForSession(
  row: ContactRow,
  labels: readonly string[],
  session: Session,
): PublicContact {
  const base = isRestrictedSession(session)
    ? restrictedView(row, session)
    : presentPublicContact(row, labels);
  const claims = session.claimed;
  return {
    ...base,
    ...(typeof claims.name === "string" && { name: claims.name }),
    ...(typeof claims.email === "string" && { email: claims.email }),
    ...(typeof claims.phone_number === "string" && { phone_number: claims.phone_number }),
    custom_attributes: { ...base.custom_attributes, ...record(claims.custom_attributes) },
  };
}

/** The contact to its own session: plus source_id and pubsub_token. */
export const presentPublicContactSession = (
  row: ContactRow,
  labels: readonly string[],
  session: Session & { sourceId: string; pubsubToken: string },
): PublicContactSession => ({
  ...presentContactForSession(row, labels, session),
  source_id: session.sourceId,
  pubsub_token: session.pubsubToken,
});
