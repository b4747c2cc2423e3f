import type { ContactRow, InboxRow } from "../../db/schema";
import { commit } from "../../events/commit";
import type { Deps } from "../../events/deps";
import type { AnyDomainEvent } from "../../events/types";
import { invalidField } from "../../lib/errors";
import { assertMergedWithinBounds } from "../../lib/json-bounds";
import type { AccountRole, Actor } from "../access-tokens/service";
import { listInboxes, listMemberInboxes } from "../inboxes/queries";
import { contactChanges, mergePatch } from "./events";
import { contactInboxesOf, type NewContact } from "./queries";
import { mergeStatements } from "./queries.merge";
import { loadContact } from "./service";

const blank = (v: unknown) => v === null || v === undefined || v === "";

/**
 * Chatwoot parity (ContactMergeAction): the base keeps its own values and takes the mergee's
 * where its own are blank; attribute hashes merge key by key, the base's keys winning.
 */
export function mergedValues(base: ContactRow, mergee: ContactRow): Partial<NewContact> {
  const values: Partial<NewContact> = {};
  for (const key of ["name", "email", "phoneNumber", "identifier"] as const) {
    if (blank(base[key]) && !blank(mergee[key])) {
      values[key] = mergee[key];
    }
  }
  values.customAttributes = mergePatch(mergee.customAttributes, base.customAttributes);
  values.additionalAttributes = mergePatch(mergee.additionalAttributes, base.additionalAttributes);
  return values;
}

/**
 * Moves everything of the mergee's to the base contact and removes the mergee, in one D1 batch
 * with one `contact_updated` for the base: all of it happens or none of it (no orphan row,
 * whatever fails when).
 */
export async function mergeContacts(
  deps: Deps,
  accountId: number,
  input: { base_contact_id: number; mergee_contact_id: number },
): Promise<ContactRow> {
  if (input.base_contact_id === input.mergee_contact_id) {
    throw invalidField("mergee_contact_id", "must be another contact than the base contact");
  }
  const [base, mergee] = await Promise.all([
    loadContact(deps, accountId, input.base_contact_id),
    loadContact(deps, accountId, input.mergee_contact_id),
  ]);
  const values = mergedValues(base, mergee);
  // Two contacts each within the bounds can merge into attributes past them (a 422, nothing moved).
  assertMergedWithinBounds("custom_attributes", values.customAttributes);
  assertMergedWithinBounds("additional_attributes", values.additionalAttributes);
  const changed = contactChanges(base, values, {});
  const events: AnyDomainEvent[] = [
    {
      name: "contact.updated",
      accountId,
      data: { contact_id: base.id, changed_attributes: changed },
    },
  ];
  const statements = mergeStatements(deps.db, accountId, base.id, mergee.id, {
    ...values,
    updatedAt: deps.now(),
  });
  const results = await commit(deps, statements, events);
  return (results.at(-1) as ContactRow[] | undefined)?.[0] ?? base;
}

/**
 * Chatwoot parity (Contacts::ContactableInboxesService): the inboxes the caller works in that
 * can reach the contact. An API inbox always can: its source_id is the contact's existing one
 * there, or a fresh UUID to create the contact inbox with; a web widget only through a contact
 * inbox the visitor already has.
 */
export async function contactableInboxes(
  deps: Deps,
  caller: { actor: Actor; role: AccountRole },
  contact: ContactRow,
): Promise<{ sourceId: string; inbox: InboxRow }[]> {
  const inboxes =
    caller.role === "administrator"
      ? await listInboxes(deps.db, contact.accountId)
      : caller.actor.kind === "user"
        ? (await listMemberInboxes(deps.db, contact.accountId, caller.actor.user.id)).map(
            (r) => r.inbox,
          )
        : [];
  const existing = await contactInboxesOf(deps.db, [contact.id]);
  return inboxes.flatMap((inbox) => {
    const own = existing.filter((ci) => ci.inbox.id === inbox.id).at(-1);
    if (own) {
      return [{ sourceId: own.sourceId, inbox }];
    }
    return inbox.channelType === "Channel::Api" ? [{ sourceId: crypto.randomUUID(), inbox }] : [];
  });
}
