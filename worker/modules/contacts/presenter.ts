import type { z } from "@hono/zod-openapi";
import type { ContactInboxRow, ContactRow } from "../../db/schema";
import type { Sender } from "../messages/schema";
import type { ContactInboxWebhook, ContactWebhook } from "../webhooks/schema.payloads";
import type { ContactInboxWithInbox } from "./queries";
import type {
  ContactInboxSchema,
  ContactPageSchema,
  ContactSchema,
  ConversationContactSchema,
} from "./schema";

type ContactJson = z.infer<typeof ContactSchema>;
type ContactInboxJson = z.infer<typeof ContactInboxSchema>;

export type ContactView = {
  /** The contact's contact_inboxes (the other contacts' rows are ignored). */
  contactInboxes: readonly ContactInboxWithInbox[];
  /** Request origin: stored avatar paths ("/files/…") become absolute URLs. */
  origin: string;
};

const absolute = (url: string | null, origin: string) =>
  url ? (url.startsWith("/") ? `${origin}${url}` : url) : "";

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** The keys every variant of the contact opens with. */
const identity = (
  row: ContactRow,
): Pick<ContactJson, "id" | "name" | "email" | "phone_number" | "identifier"> => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone_number: row.phoneNumber,
  identifier: row.identifier,
});

export function presentContactInbox(row: ContactInboxWithInbox, origin: string): ContactInboxJson {
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
    ...identity(row),
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

/**
 * The contact as a conversation's meta.sender (Chatwoot's partial without contact_inboxes):
 * the stored avatar and additional_attributes, as Parley has always sent them there.
 */
export function presentConversationContact(
  row: ContactRow,
): z.infer<typeof ConversationContactSchema> {
  return {
    ...identity(row),
    blocked: row.blocked,
    thumbnail: row.avatarUrl ?? "",
    // Contact presence is not tracked on the account API yet.
    availability_status: "offline",
    additional_attributes: row.additionalAttributes,
    custom_attributes: row.customAttributes,
    last_activity_at: row.lastActivityAt,
    created_at: row.createdAt,
  };
}

/** A page of contacts; `inboxes` holds the contact_inboxes of every contact on the page. */
export const presentContacts = (
  rows: readonly ContactRow[],
  inboxes: readonly ContactInboxWithInbox[],
  origin: string,
) => rows.map((row) => presentContact(row, { contactInboxes: inboxes, origin }));

/** The list envelope of E1, E2 and search. */
export const presentContactPage = (
  page: {
    rows: readonly ContactRow[];
    inboxes: readonly ContactInboxWithInbox[];
    total: number;
    currentPage: string | number;
  },
  origin: string,
): z.infer<typeof ContactPageSchema> => ({
  meta: { count: page.total, current_page: page.currentPage },
  payload: presentContacts(page.rows, page.inboxes, origin),
});

/** The webhook variant (Chatwoot's contact `webhook_data`). */
export function presentContactWebhook(
  row: ContactRow,
  account: { id: number; name: string },
  origin: string,
): ContactWebhook {
  const avatar = absolute(row.avatarUrl, origin);
  return {
    ...identity(row),
    avatar,
    thumbnail: avatar,
    blocked: row.blocked,
    additional_attributes: row.additionalAttributes,
    custom_attributes: row.customAttributes,
    account,
  };
}

/** The contact as a message's sender (and a webhook conversation's meta.sender). */
export function presentContactSender(row: ContactRow): Sender {
  const avatar = row.avatarUrl ?? "";
  return {
    id: row.id,
    name: row.name,
    type: "contact",
    avatar_url: avatar,
    thumbnail: avatar,
    email: row.email,
    phone_number: row.phoneNumber,
    identifier: row.identifier,
    blocked: row.blocked,
    additional_attributes: row.additionalAttributes,
    custom_attributes: row.customAttributes,
  };
}

/**
 * The contact_inbox record as webhooks carry it, without the pubsub_token: a live-socket
 * credential a receiver has no use for.
 */
export function presentContactInboxWebhook(row: ContactInboxRow): ContactInboxWebhook {
  return {
    id: row.id,
    contact_id: row.contactId,
    inbox_id: row.inboxId,
    source_id: row.sourceId,
    hmac_verified: row.hmacVerified,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
