import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNotNull,
  isNull,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type ConversationStatus,
  conversationLabels,
  conversations,
  messages,
} from "../../db/schema";
import type { Viewer } from "./policy";
import { visibleTo } from "./queries";
import type { AssigneeType, SortKey } from "./schema";

/** The filters that shape the counted set (everything but assignee_type and paging). */
export type ListFilter = {
  accountId: number;
  viewer: Viewer;
  status?: ConversationStatus | "all";
  inboxId?: number;
  teamId?: number;
  contactId?: number;
  labels?: string[];
  /** A safe FTS5 expression over message content (see search.ts). */
  match?: string;
  /** An extra condition on conversations (the filter DSL). */
  where?: SQL;
};

const INCOMING = 0;
const OUTGOING = 1;

/**
 * Conversations with a matching public incoming/outgoing message. The FTS match runs first and
 * only its hits are joined to messages; DISTINCT keeps one row per conversation.
 */
function searchHits(db: Db, accountId: number, match: string) {
  return db
    .selectDistinct({ conversationId: messages.conversationId })
    .from(sql`messages_fts`)
    .innerJoin(messages, sql`${messages.id} = messages_fts.rowid`)
    .where(
      and(
        sql`messages_fts MATCH ${match}`,
        eq(messages.accountId, accountId),
        inArray(messages.messageType, [INCOMING, OUTGOING]),
        eq(messages.private, false),
      ),
    )
    .as("hits");
}

function conditions(db: Db, f: ListFilter): SQL[] {
  const out: (SQL | undefined)[] = [
    eq(conversations.accountId, f.accountId),
    visibleTo(db, f.viewer),
  ];
  if (f.status && f.status !== "all") {
    out.push(eq(conversations.status, f.status));
  }
  if (f.inboxId !== undefined) {
    out.push(eq(conversations.inboxId, f.inboxId));
  }
  if (f.teamId !== undefined) {
    out.push(eq(conversations.teamId, f.teamId));
  }
  if (f.contactId !== undefined) {
    out.push(eq(conversations.contactId, f.contactId));
  }
  if (f.labels && f.labels.length > 0) {
    const tagged = db
      .select({ id: conversationLabels.conversationId })
      .from(conversationLabels)
      .where(inArray(conversationLabels.title, f.labels));
    out.push(inArray(conversations.id, tagged));
  }
  out.push(f.where);
  return out.filter((c): c is SQL => c !== undefined);
}

/**
 * The filter's condition, and the search hits to start from when there is a match (a CROSS
 * JOIN keeps the hits as the outer loop, so only matching conversations are ever read).
 */
function filtered(db: Db, f: ListFilter) {
  const where = and(...conditions(db, f));
  if (f.match === undefined) {
    return { hits: undefined, where };
  }
  const hits = searchHits(db, f.accountId, f.match);
  return { hits, where: and(eq(conversations.id, hits.conversationId), where) };
}

export type CountRow = { all: number; unassigned: number; mine: number };

export function countConversations(db: Db, f: ListFilter, userId: number | null) {
  const mine =
    userId === null
      ? sql<number>`0`
      : sql<number>`coalesce(sum(${conversations.assigneeId} = ${userId}), 0)`;
  const fields = {
    all: sql<number>`count(*)`,
    unassigned: sql<number>`coalesce(sum(${conversations.assigneeId} IS NULL), 0)`,
    mine,
  };
  const { hits, where } = filtered(db, f);
  return hits
    ? db.select(fields).from(hits).crossJoin(conversations).where(where)
    : db.select(fields).from(conversations).where(where);
}

export function assigneeCondition(type: AssigneeType, userId: number | null): SQL | undefined {
  switch (type) {
    case "me":
      return userId === null ? sql`0` : eq(conversations.assigneeId, userId);
    case "unassigned":
      return isNull(conversations.assigneeId);
    case "assigned":
      return isNotNull(conversations.assigneeId);
    default:
      return undefined;
  }
}

const priorityRank = sql`CASE ${conversations.priority} WHEN 'urgent' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 END`;
const c = conversations;

/** Chatwoot's SortHandler orders; the id breaks ties so pages never overlap. */
const ORDERS: Record<SortKey, SQL[]> = {
  last_activity_at_desc: [desc(c.lastActivityAt), desc(c.id)],
  latest: [desc(c.lastActivityAt), desc(c.id)],
  last_activity_at_asc: [asc(c.lastActivityAt), asc(c.id)],
  created_at_desc: [desc(c.createdAt), desc(c.id)],
  created_at_asc: [asc(c.createdAt), asc(c.id)],
  sort_on_created_at: [asc(c.createdAt), asc(c.id)],
  priority_desc: [sql`${priorityRank} DESC NULLS LAST`, desc(c.lastActivityAt), desc(c.id)],
  sort_on_priority: [sql`${priorityRank} DESC NULLS LAST`, desc(c.lastActivityAt), desc(c.id)],
  priority_asc: [sql`${priorityRank} ASC NULLS LAST`, desc(c.lastActivityAt), desc(c.id)],
  waiting_since_desc: [sql`${c.waitingSince} DESC NULLS LAST`, asc(c.createdAt), asc(c.id)],
  waiting_since_asc: [sql`${c.waitingSince} ASC NULLS LAST`, asc(c.createdAt), asc(c.id)],
  sort_on_waiting_since: [sql`${c.waitingSince} ASC NULLS LAST`, asc(c.createdAt), asc(c.id)],
  priority_desc_created_at_asc: [sql`${priorityRank} DESC NULLS LAST`, asc(c.createdAt), asc(c.id)],
};

export type PageSpec = { sort: SortKey; limit: number; offset: number; assignee?: SQL };

export function pageConversations(db: Db, f: ListFilter, page: PageSpec) {
  const { hits, where } = filtered(db, f);
  const fields = getTableColumns(conversations);
  const source = hits
    ? db.select(fields).from(hits).crossJoin(conversations).$dynamic()
    : db.select(fields).from(conversations).$dynamic();
  return source
    .where(and(where, page.assignee))
    .orderBy(...ORDERS[page.sort])
    .limit(page.limit)
    .offset(page.offset);
}
