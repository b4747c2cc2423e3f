import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, jsonObject, updatedAt } from "./_common";
import { accounts } from "./accounts";
import { users } from "./users";

export type ChannelType = "Channel::Api" | "Channel::WebWidget";

export type WorkingHour = {
  day_of_week: number;
  closed_all_day: boolean;
  open_all_day: boolean;
  open_hour: number | null;
  open_minutes: number | null;
  close_hour: number | null;
  close_minutes: number | null;
};

/** An inbox and its channel in one row: Parley has two channel kinds, both public-API backed. */
export const inboxes = sqliteTable(
  "inboxes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    channelType: text("channel_type").$type<ChannelType>().notNull(),
    /** Public API key; for web widgets it doubles as Chatwoot's website_token. */
    inboxIdentifier: text("inbox_identifier").notNull(),
    /** Secret for identity verification (identifier_hash) and the API channel's webhook signing. */
    hmacToken: text("hmac_token").notNull(),
    hmacMandatory: integer("hmac_mandatory", { mode: "boolean" }).notNull().default(false),
    webhookUrl: text("webhook_url"),
    avatarUrl: text("avatar_url"),
    websiteUrl: text("website_url"),
    widgetColor: text("widget_color").notNull().default("#1f93ff"),
    welcomeTitle: text("welcome_title"),
    welcomeTagline: text("welcome_tagline"),
    greetingEnabled: integer("greeting_enabled", { mode: "boolean" }).notNull().default(false),
    greetingMessage: text("greeting_message"),
    enableEmailCollect: integer("enable_email_collect", { mode: "boolean" })
      .notNull()
      .default(true),
    csatSurveyEnabled: integer("csat_survey_enabled", { mode: "boolean" }).notNull().default(false),
    enableAutoAssignment: integer("enable_auto_assignment", { mode: "boolean" })
      .notNull()
      .default(true),
    /** Chatwoot's `auto_assignment_config`: `max_assignment_limit` (open conversations per agent). */
    autoAssignmentConfig: jsonObject("auto_assignment_config"),
    workingHoursEnabled: integer("working_hours_enabled", { mode: "boolean" })
      .notNull()
      .default(false),
    workingHours: text("working_hours", { mode: "json" })
      .$type<WorkingHour[]>()
      .notNull()
      .default(sql`'[]'`),
    outOfOfficeMessage: text("out_of_office_message"),
    timezone: text("timezone").notNull().default("UTC"),
    allowMessagesAfterResolved: integer("allow_messages_after_resolved", { mode: "boolean" })
      .notNull()
      .default(true),
    lockToSingleConversation: integer("lock_to_single_conversation", { mode: "boolean" })
      .notNull()
      .default(false),
    businessName: text("business_name"),
    replyTime: text("reply_time").notNull().default("in_a_few_minutes"),
    preChatFormEnabled: integer("pre_chat_form_enabled", { mode: "boolean" })
      .notNull()
      .default(false),
    preChatFormOptions: jsonObject("pre_chat_form_options"),
    locale: text("locale"),
    additionalAttributes: jsonObject("additional_attributes"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("inboxes_identifier_unique").on(t.inboxIdentifier),
    index("inboxes_account").on(t.accountId),
  ],
);

export const inboxMembers = sqliteTable(
  "inbox_members",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    inboxId: integer("inbox_id")
      .notNull()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** When auto-assignment last gave this member a conversation of the inbox (balancing). */
    lastAssignedAt: integer("last_assigned_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("inbox_members_unique").on(t.inboxId, t.userId),
    index("inbox_members_user").on(t.userId),
  ],
);

export type InboxRow = typeof inboxes.$inferSelect;
