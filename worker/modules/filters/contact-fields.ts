import { sql } from "drizzle-orm";
import { contactLabels, contacts } from "../../db/schema";
import type { FilterFieldConfig, FilterOperator } from "./types";

const EQUALITY: readonly FilterOperator[] = ["equal_to", "not_equal_to"];
const TEXT: readonly FilterOperator[] = [...EQUALITY, "contains", "does_not_contain"];
const DATE: readonly FilterOperator[] = ["is_greater_than", "is_less_than", "days_before"];

/**
 * The path is a constant of this file, written inline (not bound) so the expression matches the
 * expression indexes on contacts (see db/schema/contacts.ts).
 */
const additional = (key: "city" | "country_code" | "company_name") =>
  sql`json_extract(${contacts.additionalAttributes}, ${sql.raw(`'$.${key}'`)})`;

/** Chatwoot keeps tags on the contact; `null` asks for any tag at all. */
const tagged = (titles: string[] | null) =>
  titles === null
    ? sql`EXISTS (SELECT 1 FROM ${contactLabels} WHERE ${contactLabels.contactId} = ${contacts.id})`
    : sql`EXISTS (SELECT 1 FROM ${contactLabels} WHERE ${contactLabels.contactId} = ${contacts.id} AND ${contactLabels.title} IN (${sql.join(
        titles.map((t) => sql`${t}`),
        sql`, `,
      )}))`;

/**
 * The contact filter keys of Chatwoot's filter_keys.yml, with its operators. Text keys use
 * values[0], compared case-insensitively; `country_code`, `city` and `company` live in
 * additional_attributes (country_code falls back to the contact's own column).
 */
export const contactFilterFields: FilterFieldConfig = {
  model: "contact_attribute",
  multiValue: false,
  customAttributes: contacts.customAttributes,
  fields: {
    name: { type: "text", expr: contacts.name, operators: TEXT },
    // Emails are stored lower-cased.
    email: { type: "text", expr: contacts.email, operators: TEXT, caseless: true },
    phone_number: {
      type: "text",
      expr: contacts.phoneNumber,
      operators: [...TEXT, "starts_with"],
      phone: true,
    },
    identifier: { type: "text", expr: contacts.identifier, operators: EQUALITY },
    country_code: {
      type: "text",
      expr: sql`coalesce(${additional("country_code")}, ${contacts.countryCode})`,
      operators: EQUALITY,
    },
    city: { type: "text", expr: additional("city"), operators: TEXT },
    company: { type: "text", expr: additional("company_name"), operators: TEXT },
    labels: {
      type: "labels",
      tagged,
      operators: [...EQUALITY, "is_present", "is_not_present"],
    },
    created_at: { type: "date", expr: contacts.createdAt, operators: DATE },
    last_activity_at: { type: "date", expr: contacts.lastActivityAt, operators: DATE },
    blocked: { type: "boolean", expr: contacts.blocked, operators: EQUALITY },
  },
};
