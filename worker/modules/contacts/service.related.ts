import type { ContactRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { invalidField } from "../../lib/errors";
import { secureToken } from "../../lib/ids";
import {
  type ContactInboxWithInbox,
  contactInboxesOf,
  contactLabelTitles,
  insertContactInbox,
  replaceContactLabels,
} from "./queries";
import { assertSourceFree, inboxOfAccount } from "./service";

export const contactLabels = (deps: Deps, contact: ContactRow) =>
  contactLabelTitles(deps.db, contact.id);

/** Chatwoot parity: the list replaces the contact's tags; titles are free-form, lower-cased. */
export async function setContactLabels(
  deps: Deps,
  contact: ContactRow,
  labels: string[],
): Promise<string[]> {
  const titles = [...new Set(labels)].sort();
  await replaceContactLabels(deps.db, contact.id, titles);
  return titles;
}

export const contactInboxes = (deps: Deps, contact: ContactRow) =>
  contactInboxesOf(deps.db, [contact.id]);

/** Adds the contact to an inbox of the account; source_id is a new UUID unless given. */
export async function addContactInbox(
  deps: Deps,
  contact: ContactRow,
  input: { inbox_id: number; source_id?: string | null },
): Promise<ContactInboxWithInbox> {
  const inbox = await inboxOfAccount(deps, contact.accountId, input.inbox_id);
  const sourceId = input.source_id ?? crypto.randomUUID();
  await assertSourceFree(deps, inbox.id, sourceId);
  try {
    await insertContactInbox(deps.db, {
      contactId: contact.id,
      inboxId: inbox.id,
      sourceId,
      pubsubToken: secureToken(),
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw invalidField("source_id", "has already been taken", "Source has already been taken");
    }
    throw err;
  }
  return { contactId: contact.id, sourceId, inbox };
}
