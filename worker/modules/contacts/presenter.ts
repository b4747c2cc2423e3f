import type { z } from "@hono/zod-openapi";
import type { ContactInboxRow, ContactRow } from "./queries";
import type { ContactInboxSchema, ContactPageSchema, ContactSchema } from "./schema";

type ContactJson = z.infer<typeof ContactSchema>;
type ContactInboxJson = z.infer<typeof ContactInboxSchema>;

export type ContactView = {
  /** The contact's contact_inboxes (the other contacts' rows are ignored). */
  contactInboxes: readonly ContactInboxRow[];
  /** Request origin: stored avatar paths ("/files/…") become absolute URLs. */
  origin: string;
};

const absolute = (url: string | null, origin: string) =>
  url ? (url.startsWith("/") ? `${origin}${url}` : url) : "";

const text = (value: unknown) => (typeof value === "string" ? value : "");

export function presentContactInbox(row: ContactInboxRow, origin: string): ContactInboxJson {
  return {
    source_id: row.sourceId,
    inbox: {
      id: row.inbox.id,
      avatar_url: absolute(row.inbox.avatarUrl, origin),
      // Parley keeps the channel in the inbox row, so the channel id is the inbox id.
      channel_id: row.inbox.id,
      name: row.inbox.name,
      channel_type: row.inbox.channelType,
      provider: null,
    },
  };
}

/**
 * Chatwoot's contact record (list, filter, search, show, create). availability_status is
 * "offline" until contacts have presence.
 */
export function presentContact(row: ContactRow, view: ContactView): ContactJson {
  const attrs = row.additionalAttributes;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone_number: row.phoneNumber,
    identifier: row.identifier,
    blocked: row.blocked,
    thumbnail: absolute(row.avatarUrl, view.origin),
    availability_status: "offline",
    additional_attributes: {
      ...attrs,
      city: text(attrs.city),
      country: text(attrs.country),
      country_code: text(attrs.country_code ?? row.countryCode),
      created_at_ip: text(attrs.created_at_ip),
    },
    custom_attributes: row.customAttributes,
    last_activity_at: row.lastActivityAt,
    created_at: row.createdAt,
    contact_inboxes: view.contactInboxes
      .filter((ci) => ci.contactId === row.id)
      .map((ci) => presentContactInbox(ci, view.origin)),
  };
}

/** A page of contacts; `inboxes` holds the contact_inboxes of every contact on the page. */
export const presentContacts = (
  rows: readonly ContactRow[],
  inboxes: readonly ContactInboxRow[],
  origin: string,
) => rows.map((row) => presentContact(row, { contactInboxes: inboxes, origin }));

/** The list envelope of E1, E2 and search. */
export const presentContactPage = (
  page: {
    rows: readonly ContactRow[];
    inboxes: readonly ContactInboxRow[];
    total: number;
    currentPage: string | number;
  },
  origin: string,
): z.infer<typeof ContactPageSchema> => ({
  meta: { count: page.total, current_page: page.currentPage },
  payload: presentContacts(page.rows, page.inboxes, origin),
});
