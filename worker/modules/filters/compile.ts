import { and, or, type SQL, sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { readableJson } from "../../db/schema";
import { invalidField } from "../../lib/errors";
import { predicate, type ResolvedField } from "./predicates";
import {
  type CustomDefinition,
  FILTER_OPERATORS,
  type FilterCondition,
  type FilterFieldConfig,
  type FilterOperator,
} from "./types";
import { asList } from "./values";

/** Bounds the statement: D1 binds at most 100 parameters, and the page query adds its own. */
export const MAX_CONDITIONS = 25;
export const MAX_FILTER_PARAMS = 80;

const PRESENCE: readonly FilterOperator[] = ["is_present", "is_not_present"];
const TEXT_OPS: readonly FilterOperator[] = [
  "equal_to",
  "not_equal_to",
  "contains",
  "does_not_contain",
  "starts_with",
  ...PRESENCE,
];
const NUMBER_OPS: readonly FilterOperator[] = [
  "equal_to",
  "not_equal_to",
  "is_greater_than",
  "is_less_than",
  ...PRESENCE,
];
const DATE_OPS: readonly FilterOperator[] = [...NUMBER_OPS, "days_before"];
const BOOLEAN_OPS: readonly FilterOperator[] = ["equal_to", "not_equal_to", ...PRESENCE];

// Stateless; only used to count the bound parameters of a compiled filter.
const dialect = new SQLiteSyncDialect();

/** The filter's problem alone is the wire message (no path prefix). */
const invalid = (path: string, message: string) => invalidField(path, message, message);

/** Definition keys are restricted to letters, digits, `_`, `.`, `-`; anything else never compiles. */
const SAFE_KEY = /^[A-Za-z0-9_.-]{1,255}$/;

/** A custom attribute as a field: its JSON value, typed by the definition's display type. */
function customField(config: FilterFieldConfig, def: CustomDefinition): ResolvedField | null {
  if (!SAFE_KEY.test(def.attributeKey)) {
    return null;
  }
  // The quoted path makes `.` part of the key; the path itself is a bound parameter.
  const raw = sql`json_extract(${readableJson(config.customAttributes)}, ${`$."${def.attributeKey}"`})`;
  const common = { orMissing: true, presence: raw };
  switch (def.attributeDisplayType) {
    case "number":
    case "currency":
    case "percent":
      return { ...common, type: "number", expr: sql`CAST(${raw} AS REAL)`, operators: NUMBER_OPS };
    case "date":
      return { ...common, type: "isoDate", expr: raw, operators: DATE_OPS };
    case "checkbox":
      return { ...common, type: "boolean", expr: raw, operators: BOOLEAN_OPS };
    default:
      return { ...common, type: "text", expr: raw, operators: TEXT_OPS };
  }
}

function resolveField(
  key: unknown,
  path: string,
  config: FilterFieldConfig,
  definitions: readonly CustomDefinition[],
): { key: string; field: ResolvedField } {
  if (typeof key === "string") {
    const standard = Object.hasOwn(config.fields, key) ? config.fields[key] : undefined;
    if (standard) {
      return { key, field: standard };
    }
    const def = definitions.find((d) => d.attributeKey === key);
    const field = def ? customField(config, def) : null;
    if (field) {
      return { key, field };
    }
  }
  const shown = typeof key === "string" ? key.slice(0, 100) : String(key);
  throw invalid(
    path,
    `Invalid attribute key - [${shown}]. The key should be one of [${Object.keys(config.fields).join(",")}] or a custom attribute defined in the account.`,
  );
}

function resolveOperator(op: unknown, key: string, field: ResolvedField, path: string) {
  if (
    typeof op !== "string" ||
    !(FILTER_OPERATORS as readonly string[]).includes(op) ||
    !field.operators.includes(op as FilterOperator)
  ) {
    throw invalid(
      path,
      `Invalid operator. The allowed operators for ${key} are [${field.operators.join(",")}].`,
    );
  }
  return op as FilterOperator;
}

/** The operator joining condition `i` to the next one; null on the last. */
function joiner(raw: unknown, isLast: boolean, path: string): "and" | "or" | null {
  const value = typeof raw === "string" ? raw.trim().toLowerCase() : raw;
  if (value === null || value === undefined || value === "") {
    if (!isLast) {
      throw invalid(path, "query_operator (and / or) is required on every condition but the last");
    }
    return null;
  }
  if (value !== "and" && value !== "or") {
    throw invalid(path, 'Query operator must be either "AND" or "OR".');
  }
  if (isLast) {
    throw invalid(path, "query_operator must be null on the last condition");
  }
  return value;
}

function compileCondition(
  raw: unknown,
  i: number,
  config: FilterFieldConfig,
  definitions: readonly CustomDefinition[],
  nowMs: number,
): SQL {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw invalid(`payload.${i}`, "must be a condition object");
  }
  const c = raw as FilterCondition;
  const { key, field } = resolveField(
    c.attribute_key,
    `payload.${i}.attribute_key`,
    config,
    definitions,
  );
  const op = resolveOperator(c.filter_operator, key, field, `payload.${i}.filter_operator`);
  const values = asList(c.values);
  const needsValue = !PRESENCE.includes(op);
  const built =
    values && (!needsValue || values.length > 0)
      ? predicate(field, { op, values, multi: config.multiValue, nowMs })
      : null;
  if (!built) {
    throw invalid(
      `payload.${i}.values`,
      `Invalid value. The values provided for ${key} are invalid`,
    );
  }
  return built;
}

/**
 * Compiles Chatwoot's filter DSL (`[{attribute_key, filter_operator, values, query_operator}]`)
 * into one SQL condition. Chatwoot parity: conditions are joined left to right without brackets,
 * so AND binds tighter than OR (`A and B or C` = `(A AND B) OR C`). Values and JSON paths are
 * always bound parameters; keys and operators only ever select from fixed lists. Bad input is
 * ApiError 422 naming `payload.<i>.<field>`. An empty payload matches every row.
 */
export function compileFilter(
  payload: unknown,
  config: FilterFieldConfig,
  definitions: readonly CustomDefinition[],
  opts: { nowMs?: number } = {},
): SQL {
  if (!Array.isArray(payload)) {
    throw invalid("payload", "must be an array of conditions");
  }
  if (payload.length > MAX_CONDITIONS) {
    throw invalid("payload", `may hold at most ${MAX_CONDITIONS} conditions`);
  }
  const nowMs = opts.nowMs ?? Date.now();
  const groups: SQL[][] = [[]];
  payload.forEach((raw, i) => {
    const condition = compileCondition(raw, i, config, definitions, nowMs);
    (groups[groups.length - 1] as SQL[]).push(condition);
    const next = joiner(
      (raw as FilterCondition).query_operator,
      i === payload.length - 1,
      `payload.${i}.query_operator`,
    );
    if (next === "or") {
      groups.push([]);
    }
  });
  const compiled = or(...groups.map((g) => and(...g))) ?? sql`1 = 1`;
  if (dialect.sqlToQuery(compiled).params.length > MAX_FILTER_PARAMS) {
    throw invalid("payload", `uses too many values (at most ${MAX_FILTER_PARAMS} in all)`);
  }
  return compiled;
}
