import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt, jsonObject, updatedAt } from "./_common";
import { accounts } from "./accounts";
import { inboxes } from "./inboxes";

export const contacts = sqliteTable(
  "contacts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull().default(""),
    /** Stored lower-cased (Chatwoot parity), unique per account. */
    email: text("email"),
    phoneNumber: text("phone_number"),
    identifier: text("identifier"),
    blocked: integer("blocked", { mode: "boolean" }).notNull().default(false),
    avatarUrl: text("avatar_url"),
    contactType: text("contact_type", { enum: ["visitor", "lead", "customer"] })
      .notNull()
      .default("visitor"),
    middleName: text("middle_name"),
    lastName: text("last_name"),
    location: text("location"),
    countryCode: text("country_code"),
    additionalAttributes: jsonObject("additional_attributes"),
    customAttributes: jsonObject("custom_attributes"),
    lastActivityAt: integer("last_activity_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("contacts_account_email_unique").on(t.accountId, t.email),
    uniqueIndex("contacts_account_identifier_unique").on(t.accountId, t.identifier),
    // Names sort case-insensitively, as people read them.
    index("contacts_account_name_nocase").on(t.accountId, sql`${t.name} COLLATE NOCASE`),
    index("contacts_account_phone").on(t.accountId, t.phoneNumber),
    index("contacts_account_last_activity").on(t.accountId, t.lastActivityAt),
    index("contacts_account_created").on(t.accountId, t.createdAt),
  ],
);

/** Labels are free-form tags (Chatwoot's acts_as_taggable), not references to `labels`. */
export const contactLabels = sqliteTable(
  "contact_labels",
  {
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.title] }),
    index("contact_labels_title").on(t.title),
  ],
);

/** A contact's presence in an inbox; `source_id` is the public API's contact_identifier. */
export const contactInboxes = sqliteTable(
  "contact_inboxes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    inboxId: integer("inbox_id")
      .notNull()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    sourceId: text("source_id").notNull(),
    hmacVerified: integer("hmac_verified", { mode: "boolean" }).notNull().default(false),
    pubsubToken: text("pubsub_token").notNull(),
    /**
     * The session joined an existing contact by an identifier it did not verify: until it
     * verifies, it never sees nor changes the contact's personal fields (docs/public-api.md).
     */
    joinedByIdentifier: integer("joined_by_identifier", { mode: "boolean" })
      .notNull()
      .default(false),
    /**
     * Profile fields this session sent that were not written to the contact (a restricted
     * join; an email another contact has): shown back to this session alone.
     */
    claimed: jsonObject("claimed"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("contact_inboxes_inbox_source_unique").on(t.inboxId, t.sourceId),
    uniqueIndex("contact_inboxes_pubsub_unique").on(t.pubsubToken),
    index("contact_inboxes_contact").on(t.contactId),
  ],
);

export type ContactRow = typeof contacts.$inferSelect;
export type ContactInboxRow = typeof contactInboxes.$inferSelect;
