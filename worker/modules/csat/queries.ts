import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import {
  contacts,
  conversations,
  csatSurveyResponses,
  inboxes,
  messages,
  users,
} from "../../db/schema";
import type { IdRef } from "../../events/types";
import type { CsatFilter } from "./schema";

/** Chatwoot's content type of the survey message. */
export const INPUT_CSAT = "input_csat";

/** A conversation by its uuid (the survey link's credential), with its inbox's name. */
export const conversationByUuid = (db: Db, uuid: string) =>
  db
    .select({ conversation: conversations, inboxName: inboxes.name })
    .from(conversations)
    .innerJoin(inboxes, eq(inboxes.id, conversations.inboxId))
    .where(eq(conversations.uuid, uuid))
    .get();

/** The conversation's survey message (there is one at most: it is sent once). */
export const surveyMessageOf = (db: Db, conversationId: number) =>
  db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.contentType, INPUT_CSAT)))
    .orderBy(asc(messages.id))
    .get();

const answer = (path: string) =>
  sql`json_extract(CASE WHEN json_valid(m.content_attributes) THEN m.content_attributes ELSE '{}' END, ${`$.submitted_values.csat_survey_response.${path}`})`;
const attribute = (path: string) =>
  sql`json_extract(CASE WHEN json_valid(m.content_attributes) THEN m.content_attributes ELSE '{}' END, ${`$.${path}`})`;

/**
 * The survey response an updated input_csat message carries, as one upsert in the batch of the
 * update itself (a derived write): the message's first answer creates the row, a later one
 * (Chatwoot lets the visitor change it) updates it; the agent is the one the survey was sent
 * for (content_attributes.assigned_agent_id), else the assignee; the team as now.
 */
export const responseFromMessage = (db: Db, message: IdRef, at: number) =>
  db
    .insert(csatSurveyResponses)
    .select(
      sql`SELECT NULL, m.account_id, m.conversation_id, m.id, m.inbox_id, c.contact_id,
        COALESCE((SELECT u.id FROM ${users} u WHERE u.id = ${attribute("assigned_agent_id")}), c.assignee_id),
        c.team_id, ${answer("rating")}, substr(${answer("feedback_message")}, 1, 2000), ${at}, ${at}
      FROM ${messages} m JOIN ${conversations} c ON c.id = m.conversation_id
      WHERE m.id = ${message} AND m.content_type = ${INPUT_CSAT}
        AND typeof(${answer("rating")}) = 'integer' AND ${answer("rating")} BETWEEN 1 AND 5`,
    )
    .onConflictDoUpdate({
      target: csatSurveyResponses.messageId,
      set: {
        rating: sql`excluded.rating`,
        feedbackMessage: sql`excluded.feedback_message`,
        updatedAt: sql`excluded.updated_at`,
      },
    });

function conditions(accountId: number, f: CsatFilter): SQL | undefined {
  const r = csatSurveyResponses;
  return and(
    eq(r.accountId, accountId),
    f.since === undefined ? undefined : gte(r.createdAt, f.since),
    f.until === undefined ? undefined : lt(r.createdAt, f.until),
    f.userIds?.length ? inArray(r.assignedAgentId, f.userIds) : undefined,
    f.inboxId === undefined ? undefined : eq(r.inboxId, f.inboxId),
    f.teamId === undefined ? undefined : eq(r.teamId, f.teamId),
    f.ratings?.length ? inArray(r.rating, f.ratings) : undefined,
  );
}

const agent = alias(users, "agent");

/** A page of responses, newest first, with their contact, agent and conversation's display id. */
export const responsePage = (
  db: Db,
  accountId: number,
  f: CsatFilter,
  limit: number,
  offset: number,
) =>
  db
    .select({
      response: csatSurveyResponses,
      displayId: conversations.displayId,
      contact: {
        id: contacts.id,
        name: contacts.name,
        email: contacts.email,
        phone_number: contacts.phoneNumber,
      },
      agent: { id: agent.id, name: agent.name, email: agent.email },
    })
    .from(csatSurveyResponses)
    .innerJoin(conversations, eq(conversations.id, csatSurveyResponses.conversationId))
    .leftJoin(contacts, eq(contacts.id, csatSurveyResponses.contactId))
    .leftJoin(agent, eq(agent.id, csatSurveyResponses.assignedAgentId))
    .where(conditions(accountId, f))
    .orderBy(desc(csatSurveyResponses.createdAt), desc(csatSurveyResponses.id))
    .limit(limit)
    .offset(offset)
    .all();

export type ResponseListRow = Awaited<ReturnType<typeof responsePage>>[number];

/** Responses per rating under the filters. */
export const ratingCounts = (db: Db, accountId: number, f: CsatFilter) =>
  db
    .select({ rating: csatSurveyResponses.rating, n: count() })
    .from(csatSurveyResponses)
    .where(conditions(accountId, f))
    .groupBy(csatSurveyResponses.rating)
    .all();

/**
 * The survey messages' own condition, written out as the partial index messages_account_csat_created
 * is (a bound parameter would not let SQLite see that the index covers the query).
 */
const isSurvey = sql`${messages.contentType} = 'input_csat'`;

/**
 * Surveys sent in the range (Chatwoot's total_sent_messages_count), with or without a range:
 * read through the partial index of the account's input_csat messages, so the count walks the
 * surveys only, never the account's other messages.
 */
export const surveysSent = (db: Db, accountId: number, f: CsatFilter) =>
  db
    .select({ n: count() })
    .from(messages)
    .where(
      and(
        eq(messages.accountId, accountId),
        isSurvey,
        f.since === undefined ? undefined : gte(messages.createdAt, f.since),
        f.until === undefined ? undefined : lt(messages.createdAt, f.until),
        f.inboxId === undefined ? undefined : eq(messages.inboxId, f.inboxId),
      ),
    );

export const sentCount = async (db: Db, accountId: number, f: CsatFilter) =>
  (await surveysSent(db, accountId, f).get())?.n ?? 0;
