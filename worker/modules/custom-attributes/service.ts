import type { AttributeDisplayType, AttributeModel, DefinitionRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError, type ErrorDetail, invalidField, invalidFields } from "../../lib/errors";
import { contactFilterFields } from "../filters/contact-fields";
import { conversationFilterFields } from "../filters/conversation-fields";
import {
  deleteDefinition as deleteDefinitionRow,
  findDefinition,
  findDefinitionByKey,
  insertDefinition,
  type NewDefinition,
  updateDefinition as updateDefinitionRow,
} from "./queries";
import type { DefinitionCreate, DefinitionUpdate } from "./schema";

/**
 * Chatwoot parity: a custom key may not shadow a standard attribute of its model (its list,
 * plus every standard filter key, so custom filters stay reachable).
 */
const STANDARD_KEYS: Record<AttributeModel, ReadonlySet<string>> = {
  conversation_attribute: new Set([
    ...["status", "priority", "assignee_id", "inbox_id", "team_id", "display_id", "campaign_id"],
    ...["labels", "browser_language", "country_code", "referer", "created_at", "last_activity_at"],
    ...Object.keys(conversationFilterFields.fields),
  ]),
  contact_attribute: new Set([
    ...["name", "email", "phone_number", "identifier", "country_code", "city", "company_name"],
    ...["created_at", "last_activity_at", "referer", "blocked"],
    ...Object.keys(contactFilterFields.fields),
  ]),
};

/** A definition as it would be stored, checked as a whole after a create or an update. */
type Shape = {
  key: string;
  model: AttributeModel;
  type: AttributeDisplayType;
  values: string[];
  regexPattern: string | null;
  regexCue: string | null;
};

const compiles = (pattern: string) => {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
};

function ruleProblems(s: Shape): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (STANDARD_KEYS[s.model].has(s.key)) {
    problems.push({ path: "attribute_key", message: `is a standard ${s.model} key` });
  }
  if (s.type !== "text" && s.regexPattern !== null) {
    problems.push({ path: "regex_pattern", message: "is only allowed for text attributes" });
  }
  if (s.type !== "text" && s.regexCue !== null) {
    problems.push({ path: "regex_cue", message: "is only allowed for text attributes" });
  }
  if (s.regexPattern !== null && s.type === "text" && !compiles(s.regexPattern)) {
    problems.push({ path: "regex_pattern", message: "is not a valid regular expression" });
  }
  if (s.type === "list" && s.values.length === 0) {
    problems.push({ path: "attribute_values", message: "is required for list attributes" });
  }
  if (s.type !== "list" && s.values.length > 0) {
    problems.push({ path: "attribute_values", message: "is only allowed for list attributes" });
  }
  return problems;
}

const keyTaken = () =>
  invalidField("attribute_key", "has already been taken", "Attribute key has already been taken");

async function check(deps: Deps, accountId: number, shape: Shape, exceptId = 0) {
  const problems = ruleProblems(shape);
  if (problems.length > 0) {
    throw invalidFields(problems);
  }
  if (await findDefinitionByKey(deps.db, accountId, shape.model, shape.key, exceptId)) {
    throw keyTaken();
  }
}

const columns = (s: Shape) => ({
  attributeKey: s.key,
  attributeModel: s.model,
  attributeDisplayType: s.type,
  attributeValues: s.values,
  regexPattern: s.regexPattern,
  regexCue: s.regexCue,
});

export async function loadDefinition(deps: Deps, accountId: number, id: number) {
  const row = await findDefinition(deps.db, accountId, id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}

export async function createDefinition(
  deps: Deps,
  accountId: number,
  input: DefinitionCreate,
): Promise<DefinitionRow> {
  const shape: Shape = {
    key: input.attribute_key,
    model: input.attribute_model,
    type: input.attribute_display_type,
    values: input.attribute_values ?? [],
    regexPattern: input.regex_pattern ?? null,
    regexCue: input.regex_cue ?? null,
  };
  await check(deps, accountId, shape);
  const values: NewDefinition = {
    ...columns(shape),
    accountId,
    attributeDisplayName: input.attribute_display_name,
    attributeDescription: input.attribute_description ?? null,
    defaultValue: input.default_value ?? null,
  };
  try {
    const [row] = await insertDefinition(deps.db, values);
    if (!row) {
      throw new ApiError("internal_error");
    }
    return row;
  } catch (err) {
    throw isUniqueViolation(err) ? keyTaken() : err;
  }
}

/** Fields tied to a display type are dropped when the type changes away, unless sent again. */
function mergedShape(row: DefinitionRow, input: DefinitionUpdate): Shape {
  const type = input.attribute_display_type ?? row.attributeDisplayType;
  const keep = <T>(sent: T | undefined, current: T, applies: boolean, empty: T) =>
    sent !== undefined ? sent : applies ? current : empty;
  return {
    key: input.attribute_key ?? row.attributeKey,
    model: input.attribute_model ?? row.attributeModel,
    type,
    values: keep(input.attribute_values, row.attributeValues, type === "list", []) ?? [],
    regexPattern: keep(input.regex_pattern, row.regexPattern, type === "text", null) ?? null,
    regexCue: keep(input.regex_cue, row.regexCue, type === "text", null) ?? null,
  };
}

export async function updateDefinition(
  deps: Deps,
  row: DefinitionRow,
  input: DefinitionUpdate,
): Promise<DefinitionRow> {
  const shape = mergedShape(row, input);
  await check(deps, row.accountId, shape, row.id);
  const values: Partial<NewDefinition> = { ...columns(shape), updatedAt: deps.now() };
  if (input.attribute_display_name !== undefined) {
    values.attributeDisplayName = input.attribute_display_name;
  }
  if (input.attribute_description !== undefined) {
    values.attributeDescription = input.attribute_description;
  }
  if (input.default_value !== undefined) {
    values.defaultValue = input.default_value;
  }
  try {
    const [updated] = await updateDefinitionRow(deps.db, row.accountId, row.id, values);
    return updated ?? row;
  } catch (err) {
    throw isUniqueViolation(err) ? keyTaken() : err;
  }
}

/** Values already stored on contacts and conversations stay, as in Chatwoot. */
export async function deleteDefinition(deps: Deps, row: DefinitionRow): Promise<void> {
  await deleteDefinitionRow(deps.db, row.accountId, row.id);
}
