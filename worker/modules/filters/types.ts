import type { SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { AttributeDisplayType, AttributeModel } from "../../db/schema";

/** Every filter_operator Chatwoot knows (its filter_keys.yml). */
export const FILTER_OPERATORS = [
  "equal_to",
  "not_equal_to",
  "contains",
  "does_not_contain",
  "starts_with",
  "is_present",
  "is_not_present",
  "is_greater_than",
  "is_less_than",
  "days_before",
] as const;

export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** One condition as clients send it; every field is checked by the compiler. */
export type FilterCondition = {
  attribute_key?: unknown;
  filter_operator?: unknown;
  values?: unknown;
  query_operator?: unknown;
  /** The dashboard's hint; the server decides the type from the definition. */
  custom_attribute_type?: unknown;
};

export type SqlExpr = SQL | SQLiteColumn;

type Base = { operators: readonly FilterOperator[] };

/**
 * How one standard attribute_key is compared. `expr` is the SQL value compared; values are
 * always bound parameters.
 */
export type FieldSpec =
  /** Compared lower-cased (ASCII), as Chatwoot's text_case_insensitive. */
  | (Base & {
      type: "text";
      expr: SqlExpr;
      phone?: boolean;
      /** Stored already lower-cased (or caseless, like phones): compared as is, so indexes apply. */
      caseless?: boolean;
    })
  | (Base & { type: "number"; expr: SqlExpr; integer?: boolean })
  /** A unix-seconds column compared by UTC calendar day, as Chatwoot's `::date` casts. */
  | (Base & { type: "date"; expr: SqlExpr })
  | (Base & { type: "boolean"; expr: SqlExpr })
  /** A closed set of values; `any` (e.g. status "all") matches every row. */
  | (Base & { type: "enum"; expr: SqlExpr; values: readonly string[]; any?: string })
  /** Tags: `tagged(titles)` is an EXISTS over the tag table, `null` meaning any tag. */
  | (Base & { type: "labels"; tagged: (titles: string[] | null) => SQL });

export type FilterFieldConfig = {
  /** Which custom attribute definitions apply to non-standard keys. */
  model: AttributeModel;
  /** Conversations compare equal_to / not_equal_to against every value (IN / NOT IN). */
  multiValue: boolean;
  /** The JSON column holding custom attributes. */
  customAttributes: SqlExpr;
  fields: Readonly<Record<string, FieldSpec>>;
};

/** The parts of a custom attribute definition the compiler needs. */
export type CustomDefinition = {
  attributeKey: string;
  attributeDisplayType: AttributeDisplayType;
};
