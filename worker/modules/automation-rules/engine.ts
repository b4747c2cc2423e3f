import {
  asList,
  booleanValue,
  dayStart,
  daysValue,
  dayValue,
  numberValue,
  ONE_DAY,
  textValue,
} from "../filters/values";
import {
  CUSTOM_VALUE_TYPE,
  customDefinition,
  type Facts,
  ruleField,
  type ValueType,
} from "./fields";

export type { Facts } from "./fields";

/** A stored condition; its shape was checked when the rule was saved. */
export type RuleCondition = {
  attribute_key: string;
  filter_operator: string;
  values?: unknown;
  query_operator?: string | null;
  custom_attribute_type?: string | null;
};

/** A value a condition reads, and how it compares. */
type Reading = { type: ValueType; value: unknown; custom: boolean };

function read(condition: RuleCondition, facts: Facts): Reading | null {
  const key = condition.attribute_key;
  const field = ruleField(key);
  if (field) {
    return { type: field.type, value: field.read(facts), custom: false };
  }
  const def = customDefinition(facts.definitions, key, condition.custom_attribute_type);
  if (!def) {
    return null;
  }
  const owner =
    def.model === "conversation_attribute"
      ? facts.conversation.customAttributes
      : (facts.contact?.customAttributes ?? {});
  return { type: CUSTOM_VALUE_TYPE[def.type], value: own(owner, key) ?? null, custom: true };
}

const absent = (value: unknown) => value === null || value === undefined;

/** The compared form of one value of `type`, or null when it has none. */
function normalise(type: ValueType, value: unknown): string | number | boolean | null {
  if (absent(value)) {
    return null;
  }
  switch (type) {
    case "number":
    case "id":
      return numberValue(value, type === "id");
    case "date":
      return dayValue(value);
    case "boolean":
      return booleanValue(value);
    default: {
      const text = textValue(value) ?? (typeof value === "string" ? value : null);
      return text === null ? null : text.toLowerCase();
    }
  }
}

function compare(operator: string, reading: Reading, values: unknown[], now: number): boolean {
  const { type } = reading;
  if (type === "labels") {
    const labels = (reading.value as string[]).map((l) => l.toLowerCase());
    const wanted = values.map((v) => normalise("text", v));
    const tagged = labels.some((l) => wanted.includes(l));
    return operator === "equal_to" ? tagged : !tagged;
  }
  const actual = normalise(type, reading.value);
  if (actual === null) {
    // Chatwoot parity: NULL never matches in SQL, except a missing custom attribute for !=.
    return operator === "not_equal_to" && reading.custom;
  }
  const first = values.length > 0 ? normalise(type, values[0]) : null;
  switch (operator) {
    case "equal_to":
      // Chatwoot parity: status "all" matches any status.
      return values.some((v) => (type === "enum" && v === "all") || normalise(type, v) === actual);
    case "not_equal_to":
      return values.every((v) => normalise(type, v) !== actual);
    case "contains":
      return first !== null && String(actual).includes(String(first));
    case "does_not_contain":
      return first !== null && !String(actual).includes(String(first));
    case "starts_with":
      return first !== null && String(actual).startsWith(String(first));
    case "is_greater_than":
      return first !== null && (actual as number) > (first as number);
    case "is_less_than":
      return first !== null && (actual as number) < (first as number);
    case "days_before": {
      const days = daysValue(values[0]);
      const cutoff = dayStart(now * 1000) - (days ?? 0) * ONE_DAY;
      return days !== null && typeof actual === "number" && actual < cutoff;
    }
    default:
      return false;
  }
}

/** `values` of attribute_changed: `{from, to}`, or a one-element list of it. */
function changeSpec(values: unknown): { from: unknown[]; to: unknown[] } | null {
  const spec = Array.isArray(values) ? values[0] : values;
  if (!spec || typeof spec !== "object") {
    return null;
  }
  const { from, to } = spec as { from?: unknown; to?: unknown };
  return { from: asList(from) ?? [], to: asList(to) ?? [] };
}

const changeKey = (value: unknown) =>
  absent(value) || value === "" || value === "nil" ? "nil" : String(value).toLowerCase();

/** A key's own value: a rule's attribute_key such as "constructor" must not find the prototype's. */
const own = (record: unknown, key: string) =>
  record && typeof record === "object" && Object.hasOwn(record, key)
    ? (record as Record<string, unknown>)[key]
    : undefined;

/** Chatwoot parity: the attribute changed from one of `from` to one of `to`. */
function changed(condition: RuleCondition, facts: Facts): boolean {
  const spec = changeSpec(condition.values);
  const key = condition.attribute_key;
  type Change = Facts["changedAttributes"][string] | undefined;
  let change = own(facts.changedAttributes, key) as Change;
  if (!change && !ruleField(key)) {
    const custom = own(facts.changedAttributes, "custom_attributes") as Change;
    const before = own(custom?.previous_value, key);
    const after = own(custom?.current_value, key);
    change =
      custom && JSON.stringify(before) !== JSON.stringify(after)
        ? { previous_value: before, current_value: after }
        : undefined;
  }
  if (!spec || !change) {
    return false;
  }
  return (
    spec.from.map(changeKey).includes(changeKey(change.previous_value)) &&
    spec.to.map(changeKey).includes(changeKey(change.current_value))
  );
}

/** One condition against the facts. */
export function matches(condition: RuleCondition, facts: Facts): boolean {
  const operator = condition.filter_operator;
  if (operator === "attribute_changed") {
    return changed(condition, facts);
  }
  const reading = read(condition, facts);
  if (!reading) {
    return false;
  }
  if (operator === "is_present" || operator === "is_not_present") {
    const present =
      reading.type === "labels" ? (reading.value as string[]).length > 0 : !absent(reading.value);
    return operator === "is_present" ? present : !present;
  }
  return compare(operator, reading, asList(condition.values) ?? [], facts.now);
}

/**
 * Chatwoot parity: each condition's query_operator joins it to the next, in one flat
 * expression where AND binds tighter than OR (`A and B or C` is `(A and B) or C`).
 * A rule without conditions matches everything.
 */
export function evaluate(rule: { conditions: readonly RuleCondition[] }, facts: Facts): boolean {
  const groups: RuleCondition[][] = [];
  let current: RuleCondition[] = [];
  rule.conditions.forEach((condition, i) => {
    current.push(condition);
    if (condition.query_operator?.toLowerCase() === "or" || i === rule.conditions.length - 1) {
      groups.push(current);
      current = [];
    }
  });
  if (groups.length === 0) {
    return true;
  }
  return groups.some((group) => group.every((condition) => matches(condition, facts)));
}
