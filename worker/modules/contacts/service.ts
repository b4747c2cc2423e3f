import type { ContactRow, InboxRow } from "../../db/schema";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import type { AnyDomainEvent } from "../../events/types";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, invalidField } from "../../lib/errors";
import { secureToken } from "../../lib/ids";
import { assertMergedWithinBounds } from "../../lib/json-bounds";
import { pickDefined } from "../../lib/patch";
import { validateCustomAttributes } from "../custom-attributes/validate";
import { deleteStored, fileUrl, IMAGE_TYPES, storeUpload } from "../files/storage";
import { findInbox } from "../inboxes/queries";
import { contactChanges, contactUpdatedEvents, mergePatch } from "./events";
import {
  type ContactInboxWithInbox,
  contactIdBySource,
  deleteContact as deleteContactRow,
  findContact,
  findContactBy,
  findContactInboxBySource,
  insertContactWithInbox,
  type NewContact,
  updateContact as updateContactRow,
} from "./queries";
import type { ContactCreate, ContactUpdate } from "./schema.requests";

const taken = (path: string, what: string) =>
  invalidField(path, "has already been taken", `${what} has already been taken`);

/** Which unique index a failed write hit, as the 422 Chatwoot would give. */
function clash(err: unknown): ApiError | unknown {
  if (!isUniqueViolation(err)) {
    return err;
  }
  const message = String((err as Error).message) + String((err as Error).cause ?? "");
  if (/contact_inboxes/.test(message)) {
    return taken("source_id", "Source has");
  }
  return /identifier/.test(message) ? taken("identifier", "Identifier") : taken("email", "Email");
}

export async function loadContact(deps: Deps, accountId: number, id: number): Promise<ContactRow> {
  const contact = await findContact(deps.db, accountId, id);
  if (!contact) {
    throw new ApiError("not_found");
  }
  return contact;
}

/** An inbox named in a body: one of another account is a validation error, not a 404. */
export async function inboxOfAccount(deps: Deps, accountId: number, id: number): Promise<InboxRow> {
  const inbox = await findInbox(deps.db, accountId, id);
  if (!inbox) {
    throw invalidField("inbox_id", "is not an inbox of this account");
  }
  return inbox;
}

export async function assertSourceFree(deps: Deps, inboxId: number, sourceId: string) {
  if (await findContactInboxBySource(deps.db, inboxId, sourceId)) {
    throw taken("source_id", "Source has");
  }
}

/** Email and identifier are unique per account (Chatwoot parity: 422 on a clash). */
async function assertUnique(deps: Deps, accountId: number, input: ContactUpdate, exceptId = 0) {
  const [email, identifier] = await Promise.all([
    input.email ? findContactBy(deps.db, accountId, "email", input.email, exceptId) : undefined,
    input.identifier
      ? findContactBy(deps.db, accountId, "identifier", input.identifier, exceptId)
      : undefined,
  ]);
  if (email) {
    throw taken("email", "Email");
  }
  if (identifier) {
    throw taken("identifier", "Identifier");
  }
}

const CONTACT_COLUMNS = {
  name: "name",
  email: "email",
  phone_number: "phoneNumber",
  identifier: "identifier",
  blocked: "blocked",
  avatar_url: "avatarUrl",
} as const satisfies Partial<Record<keyof ContactUpdate, keyof NewContact>>;

/**
 * The columns of a create or update; the avatar is stored last, once every check passed.
 * `uploaded` is the new file's key, removed again if the write fails.
 */
async function contactValues(
  deps: Deps,
  accountId: number,
  input: ContactUpdate,
  origin: string,
): Promise<{ values: Partial<NewContact>; uploaded: string[] }> {
  const values = pickDefined(input, CONTACT_COLUMNS) as Partial<NewContact>;
  if (!input.avatar) {
    return { values, uploaded: [] };
  }
  const stored = await storeUpload(deps.env, accountId, "avatars", input.avatar, {
    field: "avatar",
    allowedTypes: IMAGE_TYPES,
  });
  values.avatarUrl = fileUrl(origin, stored.key);
  return { values, uploaded: [stored.key] };
}

/**
 * Creates the contact and its contact_inbox in `inbox_id` (source_id generated as a UUID when
 * absent, a fresh pubsub_token) atomically.
 */
export async function createContact(
  deps: Deps,
  accountId: number,
  input: ContactCreate,
  origin: string,
): Promise<{ contact: ContactRow; contactInbox: ContactInboxWithInbox }> {
  const inbox = await inboxOfAccount(deps, accountId, input.inbox_id);
  const sourceId = input.source_id ?? crypto.randomUUID();
  await Promise.all([
    assertUnique(deps, accountId, input),
    assertSourceFree(deps, inbox.id, sourceId),
  ]);
  const custom = await validateCustomAttributes(
    deps,
    accountId,
    "contact_attribute",
    input.custom_attributes ?? {},
  );
  const { values, uploaded } = await contactValues(deps, accountId, input, origin);
  let contact: ContactRow | undefined;
  const created: AnyDomainEvent = {
    name: "contact.created",
    accountId,
    data: { inbox_id: inbox.id },
    refs: { contact_id: contactIdBySource(deps.db, inbox.id, sourceId) },
  };
  try {
    const inserts = insertContactWithInbox(
      deps.db,
      {
        ...values,
        accountId,
        additionalAttributes: input.additional_attributes ?? {},
        customAttributes: custom,
      },
      { inboxId: inbox.id, sourceId, pubsubToken: secureToken() },
    );
    const [rows] = await commit(deps, [...inserts], [created]);
    contact = (rows as ContactRow[])[0];
  } catch (err) {
    await deleteStored(deps.env, uploaded);
    throw clash(err);
  }
  if (!contact) {
    throw new ApiError("internal_error");
  }
  const contactInbox = { contactId: contact.id, sourceId, inbox };
  return { contact, contactInbox };
}

/** The attribute objects as the SQL json_patch will leave them must stay within the bounds. */
function boundMerged(
  contact: ContactRow,
  merge: { custom?: Record<string, unknown>; additional?: Record<string, unknown> },
) {
  if (merge.custom) {
    assertMergedWithinBounds(
      "custom_attributes",
      mergePatch(contact.customAttributes, merge.custom),
    );
  }
  if (merge.additional) {
    assertMergedWithinBounds(
      "additional_attributes",
      mergePatch(contact.additionalAttributes, merge.additional),
    );
  }
}

/** Chatwoot parity: custom_attributes and additional_attributes merge into the stored ones. */
export async function updateContact(
  deps: Deps,
  contact: ContactRow,
  input: ContactUpdate,
  origin: string,
): Promise<ContactRow> {
  await assertUnique(deps, contact.accountId, input, contact.id);
  const custom =
    input.custom_attributes &&
    (await validateCustomAttributes(
      deps,
      contact.accountId,
      "contact_attribute",
      input.custom_attributes,
    ));
  const { values, uploaded } = await contactValues(deps, contact.accountId, input, origin);
  let row: ContactRow | undefined;
  const merge = { custom, additional: input.additional_attributes };
  boundMerged(contact, merge);
  const events = contactUpdatedEvents(contact, contactChanges(contact, values, merge));
  try {
    const update = updateContactRow(
      deps.db,
      contact.accountId,
      contact.id,
      { ...values, updatedAt: deps.now() },
      merge,
    );
    const [rows] = await commit(deps, [update], events);
    row = (rows as ContactRow[])[0];
  } catch (err) {
    await deleteStored(deps.env, uploaded);
    throw clash(err);
  }
  return row ?? contact;
}

/**
 * Its contact_inboxes, labels and conversations go too (Chatwoot destroys them with it). An
 * uploaded avatar stays in R2: avatar_url is client-settable, so the URL alone does not prove
 * the file was this contact's to delete.
 */
export async function deleteContact(deps: Deps, contact: ContactRow): Promise<void> {
  await deleteContactRow(deps.db, contact.accountId, contact.id);
}
