import type { ErrorDetail } from "../../lib/errors";
import { FILTER_OPERATORS, type FilterOperator } from "../filters/types";
import {
  asList,
  booleanValue,
  daysValue,
  dayValue,
  numberValue,
  textValue,
} from "../filters/values";
import {
  CUSTOM_VALUE_TYPE,
  type CustomDefinition,
  customDefinition,
  type Field,
  fieldAllowedOn,
  RULE_FIELDS,
  type RuleEvent,
  ruleField,
  type ValueType,
} from "./fields";
import type { RuleConditionInput } from "./schema";

/** What a key resolves to: a standard field or a custom attribute definition. */
type Target =
  | { kind: "field"; field: Field }
  | { kind: "custom"; def: CustomDefinition; type: ValueType };

function valueProblem(type: ValueType, field: Field | null, value: unknown): string | null {
  switch (type) {
    case "id":
    case "number":
      return numberValue(value, type === "id") === null ? "must be numbers" : null;
    case "date":
      return dayValue(value) === null ? "must be dates (YYYY-MM-DD)" : null;
    case "boolean":
      return booleanValue(value) === null ? "must be true or false" : null;
    case "enum": {
      const allowed = [...(field?.values ?? []), ...(field === RULE_FIELDS.status ? ["all"] : [])];
      return allowed.includes(String(value)) ? null : `must be among ${allowed.join(", ")}`;
    }
    default:
      return textValue(value) === null ? "must be non-blank text" : null;
  }
}

function valuesProblem(operator: string, target: Target, values: unknown): string | null {
  if (operator === "is_present" || operator === "is_not_present") {
    return null;
  }
  const list = asList(values);
  if (!list || list.length === 0) {
    return "can't be blank";
  }
  if (operator === "days_before") {
    return daysValue(list[0]) === null ? "must be a whole number of days from 1 to 998" : null;
  }
  const type = target.kind === "field" ? target.field.type : target.type;
  const field = target.kind === "field" ? target.field : null;
  for (const value of list) {
    const problem = valueProblem(type, field, value);
    if (problem) {
      return problem;
    }
  }
  return null;
}

function changeProblem(event: RuleEvent, target: Target, values: unknown): ErrorDetail | null {
  if (event !== "conversation_updated") {
    return { path: "filter_operator", message: "attribute_changed needs conversation_updated" };
  }
  const watchable =
    target.kind === "field"
      ? target.field.changes === true
      : target.def.model === "conversation_attribute";
  if (!watchable) {
    return { path: "attribute_key", message: "can't be watched with attribute_changed" };
  }
  const spec = (Array.isArray(values) ? values[0] : values) as { from?: unknown; to?: unknown };
  const ok =
    spec !== null &&
    typeof spec === "object" &&
    Array.isArray(spec.from) &&
    Array.isArray(spec.to) &&
    spec.from.length > 0 &&
    spec.to.length > 0;
  return ok
    ? null
    : { path: "values", message: "must be {from: [...], to: [...]}, both non-empty" };
}

function resolve(
  event: RuleEvent,
  condition: RuleConditionInput,
  definitions: readonly CustomDefinition[],
): Target | ErrorDetail {
  const key = condition.attribute_key;
  const field = ruleField(key);
  if (field) {
    return fieldAllowedOn(field, event)
      ? { kind: "field", field }
      : { path: "attribute_key", message: `${key} is only available on message_created` };
  }
  const def = customDefinition(definitions, key, condition.custom_attribute_type);
  return def
    ? { kind: "custom", def, type: CUSTOM_VALUE_TYPE[def.type] }
    : {
        path: "attribute_key",
        message: `${key} is neither a standard key nor a custom attribute of this account`,
      };
}

function conditionProblem(
  event: RuleEvent,
  condition: RuleConditionInput,
  definitions: readonly CustomDefinition[],
): ErrorDetail | null {
  const target = resolve(event, condition, definitions);
  if ("path" in target) {
    return target;
  }
  const operator = condition.filter_operator;
  if (operator === "attribute_changed") {
    return changeProblem(event, target, condition.values);
  }
  const allowed: readonly FilterOperator[] =
    target.kind === "field" ? target.field.operators : FILTER_OPERATORS;
  if (!allowed.includes(operator as FilterOperator)) {
    return {
      path: "filter_operator",
      message: `must be one of ${allowed.join(", ")} for ${condition.attribute_key}`,
    };
  }
  const problem = valuesProblem(operator, target, condition.values);
  return problem ? { path: "values", message: problem } : null;
}

/**
 * Chatwoot parity (automation validator + filter chaining): every key known for the event,
 * operators allowed for the key, values that parse, and query_operator on every condition but
 * the last.
 */
export function conditionProblems(
  event: RuleEvent,
  conditions: readonly RuleConditionInput[],
  definitions: readonly CustomDefinition[],
): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  conditions.forEach((condition, i) => {
    const at = (path: string) => `conditions.${i}.${path}`;
    const problem = conditionProblem(event, condition, definitions);
    if (problem) {
      problems.push({ path: at(problem.path), message: problem.message });
    }
    const joiner = condition.query_operator ?? "";
    const last = i === conditions.length - 1;
    if (!last && !["and", "or"].includes(joiner.toLowerCase())) {
      problems.push({ path: at("query_operator"), message: "must be and or or" });
    }
    if (last && joiner !== "") {
      problems.push({ path: at("query_operator"), message: "must be empty on the last condition" });
    }
  });
  return problems;
}
