import type { ContactRow } from "../../db/schema";
import type { AnyDomainEvent, ChangedAttributes } from "../../events/types";
import type { NewContact } from "./queries";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** What SQLite's json_patch (RFC 7396) makes of `target` and `patch`. */
export function mergePatch(target: Json, patch: Json): Json {
  const out: Json = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete out[key];
    } else if (isObject(value)) {
      out[key] = mergePatch(isObject(out[key]) ? (out[key] as Json) : {}, value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Contact columns by their JSON names, as changed_attributes reports them. */
const JSON_NAMES = {
  name: "name",
  email: "email",
  phoneNumber: "phone_number",
  identifier: "identifier",
  blocked: "blocked",
  avatarUrl: "avatar_url",
  customAttributes: "custom_attributes",
  additionalAttributes: "additional_attributes",
} as const satisfies Partial<Record<keyof ContactRow, string>>;

/**
 * What an update will change, computed from the row the caller loaded before the write (the
 * attribute objects merge as the SQL json_patch does).
 */
export function contactChanges(
  before: ContactRow,
  values: Partial<NewContact>,
  merge: { custom?: Json; additional?: Json },
): ChangedAttributes {
  const after: Partial<ContactRow> = { ...values } as Partial<ContactRow>;
  if (merge.custom) {
    after.customAttributes = mergePatch(before.customAttributes, merge.custom);
  }
  if (merge.additional) {
    after.additionalAttributes = mergePatch(before.additionalAttributes, merge.additional);
  }
  const changed: ChangedAttributes = {};
  for (const [column, name] of Object.entries(JSON_NAMES) as [keyof typeof JSON_NAMES, string][]) {
    if (column in after && JSON.stringify(before[column]) !== JSON.stringify(after[column])) {
      changed[name] = { previous_value: before[column], current_value: after[column] };
    }
  }
  return changed;
}

/** Chatwoot parity: contact_updated only when something actually changed. */
export function contactUpdatedEvents(
  before: ContactRow,
  changed: ChangedAttributes,
): AnyDomainEvent[] {
  if (Object.keys(changed).length === 0) {
    return [];
  }
  return [
    {
      name: "contact.updated",
      accountId: before.accountId,
      data: { contact_id: before.id, changed_attributes: changed },
      ifChanged: true,
    },
  ];
}
