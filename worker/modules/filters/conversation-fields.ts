import { sql } from "drizzle-orm";
import {
  CONVERSATION_PRIORITIES,
  CONVERSATION_STATUSES,
  conversationLabels,
  conversations,
  readableJson,
} from "../../db/schema";
import type { FilterFieldConfig, FilterOperator } from "./types";

const EQUALITY: readonly FilterOperator[] = ["equal_to", "not_equal_to"];
const PRESENCE: readonly FilterOperator[] = ["is_present", "is_not_present"];
const TEXT: readonly FilterOperator[] = [...EQUALITY, "contains", "does_not_contain"];
const DATE: readonly FilterOperator[] = ["is_greater_than", "is_less_than", "days_before"];

const additional = (key: string) =>
  sql`json_extract(${readableJson(conversations.additionalAttributes)}, ${`$.${key}`})`;

const tagged = (titles: string[] | null) =>
  titles === null
    ? sql`EXISTS (SELECT 1 FROM ${conversationLabels} WHERE ${conversationLabels.conversationId} = ${conversations.id})`
    : sql`EXISTS (SELECT 1 FROM ${conversationLabels} WHERE ${conversationLabels.conversationId} = ${conversations.id} AND ${conversationLabels.title} IN (${sql.join(
        titles.map((t) => sql`${t}`),
        sql`, `,
      )}))`;

const id = (expr: FilterFieldConfig["customAttributes"], nullable: boolean) => ({
  type: "number" as const,
  expr,
  integer: true,
  operators: nullable ? [...EQUALITY, ...PRESENCE] : EQUALITY,
});

/**
 * The conversation filter keys of Chatwoot's filter_keys.yml. equal_to / not_equal_to compare
 * against every value (IN / NOT IN); status value `all` matches any status. `display_id` is the
 * account-wide number clients see as the conversation id. browser_language,
 * conversation_language, referer and mail_subject live in additional_attributes.
 */
export const conversationFilterFields: FilterFieldConfig = {
  model: "conversation_attribute",
  multiValue: true,
  customAttributes: conversations.customAttributes,
  fields: {
    status: {
      type: "enum",
      expr: conversations.status,
      values: CONVERSATION_STATUSES,
      any: "all",
      operators: EQUALITY,
    },
    assignee_id: id(conversations.assigneeId, true),
    inbox_id: id(conversations.inboxId, false),
    team_id: id(conversations.teamId, true),
    contact_id: id(conversations.contactId, false),
    display_id: id(conversations.displayId, false),
    priority: {
      type: "enum",
      expr: conversations.priority,
      values: CONVERSATION_PRIORITIES,
      operators: [...EQUALITY, ...PRESENCE],
    },
    labels: { type: "labels", tagged, operators: [...EQUALITY, ...PRESENCE] },
    browser_language: { type: "text", expr: additional("browser_language"), operators: EQUALITY },
    conversation_language: {
      type: "text",
      expr: additional("conversation_language"),
      operators: EQUALITY,
    },
    referer: { type: "text", expr: additional("referer"), operators: TEXT },
    created_at: { type: "date", expr: conversations.createdAt, operators: DATE },
    last_activity_at: { type: "date", expr: conversations.lastActivityAt, operators: DATE },
    mail_subject: { type: "text", expr: additional("mail_subject"), operators: TEXT },
  },
};
