import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import type { CreatedMessage, DerivedWrites } from "../../events/registry";
import type { AnyDomainEvent, ChangedAttributes, IdRef } from "../../events/types";
import { nowSeconds } from "../../lib/time";
import { ensureCalendars } from "./calendar";
import {
  assigneeRecorded,
  type Fact,
  fromConversation,
  fromCreatedMessages,
  fromMessage,
  HUMAN_REPLY,
  hasFact,
  INBOX_HAS_BOT,
  insertFacts,
  labelIdOf,
  lastFactAt,
  prepareCreatedFacts,
  statusRecorded,
} from "./queries.facts";

type Batch = BatchItem<"sqlite">;
/** A fact before its account is known (the event gives it). */
type FactDraft = Omit<Fact, "accountId">;

/** A counting fact: no duration, at the moment `at` (SQL). */
const moment = (name: string, at: SQL, from: Fact["from"], user = sql`c.assignee_id`) =>
  ({ name, from, start: at, end: at, user }) satisfies FactDraft;

/** Counted at creation and at each later assignment, so both share one definition. */
const assigned = (ref: IdRef, at: SQL, guard: SQL = sql``) =>
  moment(
    "conversation_assigned",
    at,
    fromConversation(ref, sql`AND c.assignee_id IS NOT NULL ${guard}`),
  );
const teamAssigned = (ref: IdRef, at: SQL) =>
  moment("conversation_team_assigned", at, fromConversation(ref, sql`AND c.team_id IS NOT NULL`));

/** Chatwoot's facts of a status change (ReportingEventListener), as at `at`. */
function statusFacts(
  e: Extract<AnyDomainEvent, { name: "conversation.status_changed" }>,
  ref: IdRef,
  at: number,
): FactDraft[] {
  const current = e.data.changed_attributes.status?.current_value;
  const previous = e.data.previous_status;
  const guard = e.ifChanged ? statusRecorded(at, String(current)) : sql``;
  const now = sql`${at}`;
  const facts: FactDraft[] = [];
  if (current === "resolved") {
    facts.push({
      name: "conversation_resolved",
      from: fromConversation(ref, guard),
      start: sql`c.created_at`,
      end: now,
      user: sql`c.assignee_id`,
    });
    facts.push({
      name: "conversation_bot_resolved",
      from: fromConversation(
        ref,
        sql`${guard} AND ${INBOX_HAS_BOT} AND c.first_reply_created_at IS NULL
          AND NOT ${hasFact("conversation_bot_handoff")}`,
      ),
      start: sql`c.created_at`,
      end: now,
      user: sql`NULL`,
    });
  }
  if (previous === "pending" && current === "open") {
    facts.push({
      name: "conversation_bot_handoff",
      from: fromConversation(ref, sql`${guard} AND NOT ${hasFact("conversation_bot_handoff")}`),
      start: sql`c.created_at`,
      end: now,
      user: sql`c.assignee_id`,
    });
  }
  if (previous === "resolved" && current === "open") {
    const resolvedAt = lastFactAt("conversation_resolved");
    facts.push({
      name: "conversation_opened",
      from: fromConversation(ref, sql`${guard} AND ${resolvedAt} IS NOT NULL`),
      start: resolvedAt,
      end: now,
      user: sql`c.assignee_id`,
    });
  }
  return facts;
}

/**
 * A message's facts, read before the message moves the conversation's clocks (the writer puts
 * derived rows before its touch): a human reply with no first reply yet is the first response
 * (from creation, or from the bot handoff); a later one ends a customer's wait (reply time).
 */
function messageFacts(from: (where: SQL) => SQL): FactDraft[] {
  const at = sql`m.created_at`;
  const sender = sql`m.sender_id`;
  const handoff = lastFactAt("conversation_bot_handoff");
  return [
    moment("message_incoming", at, from(sql`AND m.message_type = 0`)),
    moment(
      "message_outgoing",
      at,
      from(sql`AND m.message_type = 1`),
      sql`CASE WHEN m.sender_type = 'User' THEN m.sender_id END`,
    ),
    {
      name: "first_response",
      from: from(sql`${HUMAN_REPLY} AND c.first_reply_created_at IS NULL`),
      start: sql`COALESCE(${handoff}, c.created_at)`,
      end: at,
      user: sender,
    },
    {
      name: "reply_time",
      from: from(
        sql`${HUMAN_REPLY} AND c.first_reply_created_at IS NOT NULL AND c.waiting_since IS NOT NULL`,
      ),
      start: sql`c.waiting_since`,
      end: at,
      user: sender,
    },
  ];
}

/** A label added to the conversation (label_list grew): counted under that label. */
function labelFacts(changed: ChangedAttributes, ref: IdRef, at: number): FactDraft[] {
  const list = changed.label_list;
  if (!list) {
    return [];
  }
  const before = new Set((list.previous_value as string[] | null) ?? []);
  const added = ((list.current_value as string[] | null) ?? []).filter((t) => !before.has(t));
  return added.map((title) => ({
    ...moment(
      "conversation_labelled",
      sql`${at}`,
      fromConversation(ref, sql`AND ${labelIdOf(title)} IS NOT NULL`),
    ),
    label: labelIdOf(title),
  }));
}

/** The reporting facts one domain event makes (none for most). */
export function factsOf(e: AnyDomainEvent, at: number): FactDraft[] {
  const ref = e.conversation;
  if (ref === undefined || ref === null) {
    return [];
  }
  const now = sql`${at}`;
  switch (e.name) {
    case "conversation.created": {
      const created = sql`c.created_at`;
      return [
        moment("conversation_created", created, fromConversation(ref)),
        assigned(ref, created),
        teamAssigned(ref, created),
      ];
    }
    case "conversation.status_changed":
      return statusFacts(e, ref, at);
    case "conversation.updated":
      return e.ifChanged ? [] : labelFacts(e.data.changed_attributes, ref, at);
    case "assignee.changed":
      // An auto-assignment is conditional: counted only when its update happened.
      return [assigned(ref, now, e.ifChanged ? assigneeRecorded(at) : sql``)];
    case "team.changed":
      return e.ifChanged ? [] : [teamAssigned(ref, now)];
    case "message.created": {
      if (e.data.is_private || e.ifChanged) {
        return [];
      }
      const message = e.refs?.message_id ?? (e.data as { message_id?: number }).message_id;
      return message === undefined ? [] : messageFacts((where) => fromMessage(message, where));
    }
    default:
      return [];
  }
}

const inboxesOf = (events: readonly AnyDomainEvent[]) =>
  events.flatMap((e) => {
    const inbox = (e.data as { inbox_id?: unknown }).inbox_id;
    return typeof inbox === "number" ? [inbox] : [];
  });

/**
 * Facts per INSERT … SELECT. A message weighs at most four, but one label change adds a fact
 * per label (up to 100): D1 refuses a compound SELECT of more than five terms and a statement
 * of more than 100 bound values, which 6 labels crossed (a 500 on POST …/labels).
 */
const FACTS_PER_STATEMENT = 4;

/** The facts of a log writer's messages, one statement for a transaction (SQL built once). */
let createdFacts: ReturnType<typeof prepareCreatedFacts> | undefined;

/** The calls' public messages (a private note has no facts) in one statement. */
function createdMessagesFacts(all: CreatedMessage[]) {
  const counted = all.filter((m) => !m.isPrivate);
  if (counted.length === 0) {
    return [];
  }
  createdFacts ??= prepareCreatedFacts(
    messageFacts(fromCreatedMessages).map((f) => ({ ...f, accountId: sql`c.fact_account` })),
  );
  const messages = JSON.stringify(
    counted.map((m) => [
      m.messageId,
      m.firstReplyAt,
      m.waitingReset ? 1 : 0,
      m.waitingAt,
      m.conversationId,
      m.accountId,
    ]),
  );
  return [{ sql: createdFacts.sql, params: createdFacts.bind(messages) }];
}

/** Reporting events (and, by trigger, their rollups) in the batch of their domain events. */
export const reportingWrites: DerivedWrites = {
  prepare: (db, events, at) => ensureCalendars(db, inboxesOf(events), at || nowSeconds()),
  statements: (db: Db, e: AnyDomainEvent, at: number): Batch[] => {
    const facts = factsOf(e, at).map((f) => ({ ...f, accountId: e.accountId }));
    const statements: Batch[] = [];
    for (let i = 0; i < facts.length; i += FACTS_PER_STATEMENT) {
      statements.push(insertFacts(db, facts.slice(i, i + FACTS_PER_STATEMENT)));
    }
    return statements;
  },
  createdMessages: createdMessagesFacts,
};
