import { and, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import type {
  ContactInboxRow,
  ContactRow,
  ConversationRow,
  MessageRow,
  TeamRow,
} from "../../db/schema";
import {
  accountUsers,
  contactInboxes,
  contacts,
  conversationLabels,
  conversations,
  inboxes,
  messages,
  teamMembers,
  teams,
  users,
} from "../../db/schema";
import type { AgentRow } from "../agents/queries";
import { unseenByAgents } from "../messages/queries";

const ACTIVITY = 2;
const INCOMING = 0;

/** Everything a page of conversations needs besides its own rows, keyed by id. */
export type Related = {
  contacts: Map<number, ContactRow>;
  contactInboxes: Map<number, ContactInboxRow>;
  channels: Map<number, string>;
  assignees: Map<number, AgentRow>;
  teams: Map<number, TeamRow>;
  callerTeamIds: Set<number>;
  labels: Map<number, string[]>;
  lastMessages: Map<number, MessageRow>;
  unread: Map<number, number>;
};

const distinct = (values: (number | null)[]) => [
  ...new Set(values.filter((v): v is number => v !== null)),
];

function agentsOf(userRows: AgentRow["user"][], memberships: AgentRow["membership"][]) {
  const byId = new Map(userRows.map((u) => [u.id, u]));
  const out = new Map<number, AgentRow>();
  for (const membership of memberships) {
    const user = byId.get(membership.userId);
    if (user) {
      out.set(user.id, { user, membership });
    }
  }
  return out;
}

/**
 * Which message a conversation shows as its last: any non-activity one (agents), or only those
 * the contact may see (no private notes).
 */
export type LastMessageOf = "agents" | "contact";

/** The newest non-activity message of each conversation, by a correlated lookup per row. */
function lastMessageIds(db: Db, conversationIds: number[], audience: LastMessageOf) {
  const m = alias(messages, "m");
  const visible = audience === "contact" ? eq(m.private, false) : undefined;
  const newest = db
    .select({ id: m.id })
    .from(m)
    .where(and(eq(m.conversationId, conversations.id), ne(m.messageType, ACTIVITY), visible))
    .orderBy(desc(m.seq))
    .limit(1);
  return db
    .select({ id: sql<number>`(${newest})` })
    .from(conversations)
    .where(inArray(conversations.id, conversationIds));
}

/**
 * Loads the related records of up to a page of conversations in one D1 round trip (a batch of
 * ten queries, whatever the page size): no query per conversation.
 */
export async function loadRelated(
  db: Db,
  accountId: number,
  rows: ConversationRow[],
  callerUserId: number | null,
  lastMessageOf: LastMessageOf = "agents",
): Promise<Related> {
  const ids = rows.map((r) => r.id);
  const teamIds = distinct(rows.map((r) => r.teamId));
  const assigneeIds = distinct(rows.map((r) => r.assigneeId));
  const [
    contactRows,
    ciRows,
    inboxRows,
    userRows,
    membershipRows,
    teamRows,
    memberRows,
    labelRows,
    lastRows,
    unreadRows,
  ] = await db.batch([
    db
      .select()
      .from(contacts)
      .where(inArray(contacts.id, distinct(rows.map((r) => r.contactId)))),
    db
      .select()
      .from(contactInboxes)
      .where(inArray(contactInboxes.id, distinct(rows.map((r) => r.contactInboxId)))),
    db
      .select({ id: inboxes.id, channelType: inboxes.channelType })
      .from(inboxes)
      .where(inArray(inboxes.id, distinct(rows.map((r) => r.inboxId)))),
    // Users and memberships separately: D1 batches map joined rows by column name.
    db.select().from(users).where(inArray(users.id, assigneeIds)),
    db
      .select()
      .from(accountUsers)
      .where(and(eq(accountUsers.accountId, accountId), inArray(accountUsers.userId, assigneeIds))),
    db
      .select()
      .from(teams)
      .where(and(eq(teams.accountId, accountId), inArray(teams.id, teamIds))),
    db
      .select({ teamId: teamMembers.teamId })
      .from(teamMembers)
      .where(and(eq(teamMembers.userId, callerUserId ?? -1), inArray(teamMembers.teamId, teamIds))),
    db
      .select()
      .from(conversationLabels)
      .where(inArray(conversationLabels.conversationId, ids))
      .orderBy(conversationLabels.title),
    db
      .select()
      .from(messages)
      .where(inArray(messages.id, lastMessageIds(db, ids, lastMessageOf))),
    db
      .select({ conversationId: messages.conversationId, n: count() })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(
        and(
          inArray(messages.conversationId, ids),
          eq(messages.messageType, INCOMING),
          unseenByAgents,
        ),
      )
      .groupBy(messages.conversationId),
  ]);
  const labels = new Map<number, string[]>();
  for (const l of labelRows) {
    labels.set(l.conversationId, [...(labels.get(l.conversationId) ?? []), l.title]);
  }
  return {
    contacts: new Map(contactRows.map((r) => [r.id, r])),
    contactInboxes: new Map(ciRows.map((r) => [r.id, r])),
    channels: new Map(inboxRows.map((r) => [r.id, r.channelType])),
    assignees: agentsOf(userRows, membershipRows),
    teams: new Map(teamRows.map((r) => [r.id, r])),
    callerTeamIds: new Set(memberRows.map((r) => r.teamId)),
    labels,
    lastMessages: new Map(lastRows.map((r) => [r.conversationId, r])),
    unread: new Map(unreadRows.map((r) => [r.conversationId, r.n])),
  };
}
