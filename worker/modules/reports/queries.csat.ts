import { and, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversationLabels, csatSurveyResponses, labels } from "../../db/schema";
import type { Span } from "./range";

/** A subject's survey answers in a range: how many, and how many rated 4 or 5. */
export type CsatTotals = { id: number; responses: number; satisfied: number };

/** The dimensions a survey response is grouped by in the reports. */
export type CsatDimension = "account" | "user" | "team" | "inbox" | "label";

const R = csatSurveyResponses;

/**
 * Who an answer counts under: the agent and team it was sent for (stored with the response, as
 * Chatwoot's assigned_agent_id), its inbox, or the labels its conversation carries now (as the
 * reports' label rows read raw events).
 */
const groupId: Record<CsatDimension, SQL> = {
  account: sql`0`,
  user: sql`${R.assignedAgentId}`,
  team: sql`${R.teamId}`,
  inbox: sql`${R.inboxId}`,
  label: sql`${labels.id}`,
};

/**
 * Survey answers per subject in [from, to) (all time without a span), read through the
 * responses' (account_id, created_at) index; `id` narrows to one subject.
 */
export function csatTotals(
  db: Db,
  accountId: number,
  dimension: CsatDimension,
  span: Span | null,
  id?: number,
) {
  const by = groupId[dimension];
  const where = and(
    eq(R.accountId, accountId),
    span ? gte(R.createdAt, span.from) : undefined,
    span ? lt(R.createdAt, span.to) : undefined,
    id === undefined || dimension === "account" ? undefined : sql`${by} = ${id}`,
  );
  const fields = {
    id: sql<number>`${by}`.as("id"),
    responses: sql<number>`count(*)`.as("responses"),
    satisfied: sql<number>`coalesce(sum(${R.rating} >= 4), 0)`.as("satisfied"),
  };
  if (dimension === "label") {
    return db
      .select(fields)
      .from(R)
      .innerJoin(conversationLabels, eq(conversationLabels.conversationId, R.conversationId))
      .innerJoin(
        labels,
        and(eq(labels.accountId, R.accountId), eq(labels.title, conversationLabels.title)),
      )
      .where(where)
      .groupBy(by);
  }
  // The account is one group (and SQLite would read GROUP BY 0 as a column's position).
  const query = db.select(fields).from(R).where(where);
  return dimension === "account" ? query : query.groupBy(by);
}
