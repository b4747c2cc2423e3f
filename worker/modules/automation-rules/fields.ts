import {
  type AttributeDisplayType,
  type AttributeModel,
  CONVERSATION_PRIORITIES,
  CONVERSATION_STATUSES,
  MESSAGE_TYPES,
} from "../../db/schema";
import { FILTER_OPERATORS, type FilterOperator } from "../filters/types";

/** The events a rule can run on (Chatwoot's, conversation_opened included). */
export const RULE_EVENTS = [
  "conversation_created",
  "conversation_updated",
  "conversation_opened",
  "conversation_resolved",
  "message_created",
] as const;
export type RuleEvent = (typeof RULE_EVENTS)[number];

export const RULE_OPERATORS = [...FILTER_OPERATORS, "attribute_changed"] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

export type ValueType = "text" | "number" | "id" | "enum" | "labels" | "date" | "boolean";

/** What a rule's conditions are checked against: one conversation, its contact, one message. */
export type Facts = {
  conversation: {
    status: string;
    priority: string | null;
    assigneeId: number | null;
    teamId: number | null;
    inboxId: number;
    displayId: number;
    labels: string[];
    additionalAttributes: Record<string, unknown>;
    customAttributes: Record<string, unknown>;
    createdAt: number;
    lastActivityAt: number;
  };
  contact: {
    name: string;
    email: string | null;
    phoneNumber: string | null;
    identifier: string | null;
    countryCode: string | null;
    blocked: boolean;
    additionalAttributes: Record<string, unknown>;
    customAttributes: Record<string, unknown>;
    createdAt: number;
    lastActivityAt: number | null;
  } | null;
  /** The triggering message (message_created only). */
  message: {
    content: string | null;
    messageType: (typeof MESSAGE_TYPES)[number];
    private: boolean;
  } | null;
  /** What changed (conversation_updated), by Chatwoot's attribute name. */
  changedAttributes: Record<string, { previous_value: unknown; current_value: unknown }>;
  /** The account's custom attribute definitions. */
  definitions: CustomDefinition[];
  /** Unix seconds, for days_before. */
  now: number;
};

export type CustomDefinition = {
  key: string;
  type: AttributeDisplayType;
  model: AttributeModel;
};

/** The account's custom attribute rows as rules read them. */
export const customDefinitions = (
  rows: {
    attributeKey: string;
    attributeDisplayType: AttributeDisplayType;
    attributeModel: AttributeModel;
  }[],
): CustomDefinition[] =>
  rows.map((d) => ({ key: d.attributeKey, type: d.attributeDisplayType, model: d.attributeModel }));

export type Field = {
  type: ValueType;
  operators: readonly FilterOperator[];
  source: "conversation" | "contact" | "message";
  /** Allowed values of an enum key. */
  values?: readonly string[];
  /** attribute_changed may watch it (conversation_updated). */
  changes?: boolean;
  read: (facts: Facts) => unknown;
};

const EQUALITY: readonly FilterOperator[] = ["equal_to", "not_equal_to"];
const PRESENCE: readonly FilterOperator[] = ["is_present", "is_not_present"];
const TEXT: readonly FilterOperator[] = [...EQUALITY, "contains", "does_not_contain"];
const DATE: readonly FilterOperator[] = ["is_greater_than", "is_less_than", "days_before"];

const conv = (
  type: ValueType,
  operators: readonly FilterOperator[],
  read: (c: Facts["conversation"]) => unknown,
  extra: Partial<Field> = {},
): Field => ({
  type,
  operators,
  source: "conversation",
  read: (f) => read(f.conversation),
  ...extra,
});

const contact = (
  type: ValueType,
  operators: readonly FilterOperator[],
  read: (c: NonNullable<Facts["contact"]>) => unknown,
): Field => ({
  type,
  operators,
  source: "contact",
  read: (f) => (f.contact ? read(f.contact) : null),
});

const message = (
  type: ValueType,
  operators: readonly FilterOperator[],
  read: (m: NonNullable<Facts["message"]>) => unknown,
  values?: readonly string[],
): Field => ({
  type,
  operators,
  source: "message",
  values,
  read: (f) => (f.message ? read(f.message) : null),
});

const text = (value: unknown) => (value === undefined || value === null ? null : value);

/**
 * The standard condition keys (Chatwoot's filter_keys.yml as its automation validator reads it,
 * conversation keys first where a name is shared). country_code is the conversation's (set by
 * the widget), else the contact's.
 */
export const RULE_FIELDS: Readonly<Record<string, Field>> = {
  status: conv("enum", EQUALITY, (c) => c.status, {
    values: CONVERSATION_STATUSES,
    changes: true,
  }),
  priority: conv("enum", [...EQUALITY, ...PRESENCE], (c) => c.priority, {
    values: CONVERSATION_PRIORITIES,
    changes: true,
  }),
  assignee_id: conv("id", [...EQUALITY, ...PRESENCE], (c) => c.assigneeId, { changes: true }),
  team_id: conv("id", [...EQUALITY, ...PRESENCE], (c) => c.teamId, { changes: true }),
  inbox_id: conv("id", [...EQUALITY, ...PRESENCE], (c) => c.inboxId),
  display_id: conv("id", EQUALITY, (c) => c.displayId),
  labels: conv("labels", [...EQUALITY, ...PRESENCE], (c) => c.labels),
  browser_language: conv("text", EQUALITY, (c) => text(c.additionalAttributes.browser_language)),
  conversation_language: conv("text", EQUALITY, (c) =>
    text(c.additionalAttributes.conversation_language),
  ),
  referer: conv("text", TEXT, (c) => text(c.additionalAttributes.referer)),
  mail_subject: conv("text", TEXT, (c) => text(c.additionalAttributes.mail_subject)),
  country_code: {
    type: "text",
    operators: EQUALITY,
    source: "conversation",
    read: (f) =>
      text(f.conversation.additionalAttributes.country_code) ??
      text(f.contact?.additionalAttributes.country_code) ??
      f.contact?.countryCode ??
      null,
  },
  created_at: conv("date", DATE, (c) => c.createdAt),
  last_activity_at: conv("date", DATE, (c) => c.lastActivityAt),
  name: contact("text", TEXT, (c) => c.name),
  email: contact("text", TEXT, (c) => c.email),
  phone_number: contact("text", [...TEXT, "starts_with"], (c) => c.phoneNumber),
  identifier: contact("text", EQUALITY, (c) => c.identifier),
  city: contact("text", TEXT, (c) => text(c.additionalAttributes.city)),
  company: contact("text", TEXT, (c) => text(c.additionalAttributes.company_name)),
  blocked: contact("boolean", EQUALITY, (c) => c.blocked),
  content: message("text", [...TEXT, "starts_with"], (m) => m.content),
  message_type: message("enum", EQUALITY, (m) => m.messageType, MESSAGE_TYPES),
  private_note: message("boolean", EQUALITY, (m) => m.private),
};

/** How a custom attribute's display type compares (Chatwoot casts by the definition). */
export const CUSTOM_VALUE_TYPE: Record<AttributeDisplayType, ValueType> = {
  text: "text",
  link: "text",
  list: "text",
  number: "number",
  currency: "number",
  percent: "number",
  date: "date",
  checkbox: "boolean",
};

/**
 * The definition a custom key names: the hinted model's first, else the conversation's, else
 * the contact's (a key may be defined once per model).
 */
export function customDefinition(
  definitions: readonly CustomDefinition[],
  key: string,
  hint?: string | null,
): CustomDefinition | undefined {
  const of = (model: AttributeModel) => definitions.find((d) => d.key === key && d.model === model);
  const hinted =
    hint === "conversation_attribute" || hint === "contact_attribute" ? of(hint) : undefined;
  return hinted ?? of("conversation_attribute") ?? of("contact_attribute");
}

/** Message keys only make sense for the message that triggered the rule. */
export const fieldAllowedOn = (field: Field, event: RuleEvent) =>
  field.source !== "message" || event === "message_created";

/** The standard field named `key`: own keys only ("constructor" or "__proto__" name none). */
export const ruleField = (key: string): Field | undefined =>
  Object.hasOwn(RULE_FIELDS, key) ? RULE_FIELDS[key] : undefined;
