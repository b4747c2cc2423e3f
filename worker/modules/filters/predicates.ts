import { and, or, type SQL, sql } from "drizzle-orm";
import type { FieldSpec, FilterOperator, SqlExpr } from "./types";
import {
  booleanValue,
  dayStart,
  daysValue,
  dayValue,
  isoDay,
  lowerAscii,
  numberValue,
  ONE_DAY,
  textValue,
} from "./values";

/** A custom attribute's date: an ISO string inside JSON, compared by its `date()`. */
type IsoDateSpec = { type: "isoDate"; expr: SqlExpr; operators: readonly FilterOperator[] };

/** A field ready to compile: standard specs as configured, custom ones built from definitions. */
export type ResolvedField = (FieldSpec | IsoDateSpec) & {
  /** Custom attributes: not_equal_to also matches rows where the key is missing (Chatwoot). */
  orMissing?: boolean;
  /** What is_present / is_not_present test (the raw JSON value for custom attributes). */
  presence?: SqlExpr;
};

export type PredicateInput = {
  op: FilterOperator;
  values: unknown[];
  /** equal_to / not_equal_to against every value (conversations) or values[0] (contacts). */
  multi: boolean;
  nowMs: number;
};

/** null means a value was refused: the compiler answers 422 "Invalid value". */
type Built = SQL | null;

const list = (values: unknown[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

const allOrNull = <T>(items: (T | null)[]): T[] | null =>
  items.some((i) => i === null) ? null : (items as T[]);

function membership(expr: SqlExpr, op: FilterOperator, targets: unknown[], orMissing: boolean) {
  const positive = op === "equal_to";
  const test =
    targets.length === 1
      ? sql`${expr} ${positive ? sql`=` : sql`!=`} ${targets[0]}`
      : sql`${expr} ${positive ? sql`IN` : sql`NOT IN`} (${list(targets)})`;
  return !positive && orMissing ? sql`(${test} OR ${expr} IS NULL)` : test;
}

function text(f: Extract<ResolvedField, { type: "text" }>, input: PredicateInput): Built {
  const raw = allOrNull(input.values.map(textValue));
  if (!raw) {
    return null;
  }
  let values = raw.map(lowerAscii);
  // Chatwoot parity: phone values are compared with one leading "+".
  if (f.phone && input.op !== "contains" && input.op !== "does_not_contain") {
    values = values.map((v) => `+${v.replaceAll("+", "")}`);
  }
  const targets = input.multi ? values : values.slice(0, 1);
  const folded = f.caseless || f.phone ? f.expr : sql`lower(${f.expr})`;
  switch (input.op) {
    case "equal_to":
    case "not_equal_to":
      return membership(folded, input.op, targets, f.orMissing ?? false);
    case "contains":
      return or(...targets.map((v) => sql`instr(${folded}, ${v}) > 0`)) ?? null;
    case "does_not_contain":
      return and(...targets.map((v) => sql`instr(${folded}, ${v}) = 0`)) ?? null;
    case "starts_with":
      // A range rather than a function call, so an index on the column serves it.
      return (
        or(...targets.map((v) => sql`(${folded} >= ${v} AND ${folded} < ${`${v}\u{10FFFF}`})`)) ??
        null
      );
    default:
      return null;
  }
}

function number(f: Extract<ResolvedField, { type: "number" }>, input: PredicateInput): Built {
  const values = allOrNull(input.values.map((v) => numberValue(v, f.integer)));
  if (!values) {
    return null;
  }
  switch (input.op) {
    case "equal_to":
    case "not_equal_to":
      return membership(f.expr, input.op, input.multi ? values : values.slice(0, 1), !!f.orMissing);
    case "is_greater_than":
      return sql`${f.expr} > ${values[0]}`;
    case "is_less_than":
      return sql`${f.expr} < ${values[0]}`;
    default:
      return null;
  }
}

/** Unix-seconds columns: day comparisons become second ranges, so indexes still apply. */
function date(f: Extract<ResolvedField, { type: "date" }>, input: PredicateInput): Built {
  if (input.op === "days_before") {
    const days = daysValue(input.values[0]);
    return days === null ? null : sql`${f.expr} < ${dayStart(input.nowMs) - days * ONE_DAY}`;
  }
  const day = dayValue(input.values[0]);
  if (day === null) {
    return null;
  }
  switch (input.op) {
    case "is_greater_than":
      return sql`${f.expr} >= ${day + ONE_DAY}`;
    case "is_less_than":
      return sql`${f.expr} < ${day}`;
    case "equal_to":
      return sql`(${f.expr} >= ${day} AND ${f.expr} < ${day + ONE_DAY})`;
    case "not_equal_to":
      return sql`(${f.expr} < ${day} OR ${f.expr} >= ${day + ONE_DAY})`;
    default:
      return null;
  }
}

function isoDate(f: IsoDateSpec & ResolvedField, input: PredicateInput): Built {
  const day =
    input.op === "days_before"
      ? ((d) => (d === null ? null : dayStart(input.nowMs) - d * ONE_DAY))(
          daysValue(input.values[0]),
        )
      : dayValue(input.values[0]);
  if (day === null) {
    return null;
  }
  const value = sql`date(${f.expr})`;
  const iso = isoDay(day);
  switch (input.op) {
    case "equal_to":
    case "not_equal_to":
      return membership(value, input.op, [iso], !!f.orMissing);
    case "is_greater_than":
      return sql`${value} > ${iso}`;
    case "is_less_than":
    case "days_before":
      return sql`${value} < ${iso}`;
    default:
      return null;
  }
}

function boolean(f: Extract<ResolvedField, { type: "boolean" }>, input: PredicateInput): Built {
  const value = booleanValue(input.values[0]);
  if (value === null || (input.op !== "equal_to" && input.op !== "not_equal_to")) {
    return null;
  }
  return membership(f.expr, input.op, [value ? 1 : 0], !!f.orMissing);
}

function enumeration(f: Extract<ResolvedField, { type: "enum" }>, input: PredicateInput): Built {
  const raw = allOrNull(input.values.map(textValue));
  const values = raw?.map((v) => lowerAscii(v.trim()));
  if (!values || values.some((v) => v !== f.any && !f.values.includes(v))) {
    return null;
  }
  const targets = input.multi ? values : values.slice(0, 1);
  if (f.any !== undefined && targets.includes(f.any)) {
    return input.op === "equal_to" ? sql`1 = 1` : sql`1 = 0`;
  }
  if (input.op !== "equal_to" && input.op !== "not_equal_to") {
    return null;
  }
  return membership(f.expr, input.op, targets, !!f.orMissing);
}

function labels(f: Extract<ResolvedField, { type: "labels" }>, input: PredicateInput): Built {
  if (input.op === "is_present" || input.op === "is_not_present") {
    return input.op === "is_present" ? f.tagged(null) : sql`NOT ${f.tagged(null)}`;
  }
  const titles = allOrNull(input.values.map(textValue));
  if (!titles || (input.op !== "equal_to" && input.op !== "not_equal_to")) {
    return null;
  }
  const tagged = f.tagged(titles.map((t) => t.trim().toLowerCase()));
  return input.op === "equal_to" ? tagged : sql`NOT ${tagged}`;
}

/** The SQL of one condition whose key and operator are already known to be allowed. */
export function predicate(field: ResolvedField, input: PredicateInput): Built {
  if (field.type !== "labels" && (input.op === "is_present" || input.op === "is_not_present")) {
    const target = field.presence ?? field.expr;
    return input.op === "is_present" ? sql`${target} IS NOT NULL` : sql`${target} IS NULL`;
  }
  switch (field.type) {
    case "text":
      return text(field, input);
    case "number":
      return number(field, input);
    case "date":
      return date(field, input);
    case "isoDate":
      return isoDate(field, input);
    case "boolean":
      return boolean(field, input);
    case "enum":
      return enumeration(field, input);
    case "labels":
      return labels(field, input);
  }
}
