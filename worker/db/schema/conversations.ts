import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt, jsonObject, updatedAt } from "./_common";
import { accounts } from "./accounts";
import { contactInboxes, contacts } from "./contacts";
import { inboxes } from "./inboxes";
import { teams } from "./teams";
import { users } from "./users";

export const CONVERSATION_STATUSES = ["open", "resolved", "pending", "snoozed"] as const;
export const CONVERSATION_PRIORITIES = ["low", "medium", "high", "urgent"] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export type ConversationPriority = (typeof CONVERSATION_PRIORITIES)[number];

export const conversations = sqliteTable(
  "conversations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Account-wide number used in every path; allocated in the insert statement itself. */
    displayId: integer("display_id").notNull(),
    uuid: text("uuid").notNull(),
    inboxId: integer("inbox_id")
      .notNull()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    contactInboxId: integer("contact_inbox_id").references(() => contactInboxes.id, {
      onDelete: "set null",
    }),
    status: text("status").$type<ConversationStatus>().notNull().default("open"),
    priority: text("priority").$type<ConversationPriority>(),
    assigneeId: integer("assignee_id").references(() => users.id, { onDelete: "set null" }),
    teamId: integer("team_id").references(() => teams.id, { onDelete: "set null" }),
    snoozedUntil: integer("snoozed_until"),
    muted: integer("muted", { mode: "boolean" }).notNull().default(false),
    additionalAttributes: jsonObject("additional_attributes"),
    customAttributes: jsonObject("custom_attributes"),
    agentLastSeenAt: integer("agent_last_seen_at"),
    /**
     * The newest message seq when the agents last read (null: a mark without one, read by time).
     * Clocks are whole seconds: a message stored in the second of a read is told apart by seq.
     */
    agentLastSeenSeq: integer("agent_last_seen_seq"),
    assigneeLastSeenAt: integer("assignee_last_seen_at"),
    contactLastSeenAt: integer("contact_last_seen_at"),
    /** The same for the contact's reads (the agents' "Seen"); null: read by time. */
    contactLastSeenSeq: integer("contact_last_seen_seq"),
    firstReplyCreatedAt: integer("first_reply_created_at"),
    waitingSince: integer("waiting_since"),
    lastActivityAt: integer("last_activity_at").notNull(),
    /** Waiting for auto-assignment since (nobody was eligible); null once assigned or never. */
    assignmentQueuedAt: integer("assignment_queued_at"),
    /** The last conversation_seq handed to an outbox event of this conversation. */
    eventSeq: integer("event_seq").notNull().default(0),
    /**
     * The highest seq of the room's message log that D1 holds, set in the same transaction as the
     * rows: after a crash, a logged entry at or under it is known to be in D1 whatever its row
     * became since (edited, deleted, its sender merged), so the room's replay never writes it twice.
     */
    logSeq: integer("log_seq").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("conversations_account_display_unique").on(t.accountId, t.displayId),
    uniqueIndex("conversations_uuid_unique").on(t.uuid),
    index("conversations_account_status_activity").on(t.accountId, t.status, t.lastActivityAt),
    index("conversations_account_activity").on(t.accountId, t.lastActivityAt),
    // The timed work reads only what is due: snoozed conversations by their wake-up time, and
    // (auto_resolve_ignore_waiting) open ones nobody waits on, by their last activity.
    index("conversations_snoozed_until")
      .on(t.snoozedUntil)
      .where(sql`${t.snoozedUntil} IS NOT NULL`),
    index("conversations_assignment_queue")
      .on(t.inboxId, t.assignmentQueuedAt)
      .where(sql`${t.assignmentQueuedAt} IS NOT NULL`),
    index("conversations_assignee_inbox_status").on(t.assigneeId, t.inboxId, t.status),
    index("conversations_open_not_waiting")
      .on(t.accountId, t.lastActivityAt)
      .where(sql`${t.status} = 'open' AND ${t.waitingSince} IS NULL`),
    // The channel summary: conversations created in a range, by inbox and status, from the index.
    index("conversations_account_created").on(t.accountId, t.createdAt, t.inboxId, t.status),
    index("conversations_inbox").on(t.inboxId),
    index("conversations_contact").on(t.contactId),
    index("conversations_assignee").on(t.assigneeId),
    index("conversations_team").on(t.teamId),
  ],
);

export const conversationLabels = sqliteTable(
  "conversation_labels",
  {
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.title] }),
    index("conversation_labels_title").on(t.title),
  ],
);

export type ConversationRow = typeof conversations.$inferSelect;
