import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./_common";
import { accounts } from "./accounts";
import { contacts } from "./contacts";
import { conversations } from "./conversations";
import { inboxes } from "./inboxes";
import { messages } from "./messages";
import { teams } from "./teams";
import { users } from "./users";

/**
 * Chatwoot's csat_survey_responses: a contact's answer to a conversation's `input_csat` message,
 * one per message (the unique index makes a second answer a no-op), with the assignee and team
 * the conversation had when it was answered.
 */
export const csatSurveyResponses = sqliteTable(
  "csat_survey_responses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    inboxId: integer("inbox_id")
      .notNull()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    assignedAgentId: integer("assigned_agent_id").references(() => users.id, {
      onDelete: "set null",
    }),
    teamId: integer("team_id").references(() => teams.id, { onDelete: "set null" }),
    rating: integer("rating").notNull(),
    feedbackMessage: text("feedback_message"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("csat_survey_responses_message_unique").on(t.messageId),
    index("csat_survey_responses_account_created").on(t.accountId, t.createdAt),
  ],
);

export type CsatSurveyResponseRow = typeof csatSurveyResponses.$inferSelect;
