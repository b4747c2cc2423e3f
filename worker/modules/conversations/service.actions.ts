import type { SQL } from "drizzle-orm";
import type { ConversationRow, ConversationStatus, TeamRow } from "../../db/schema";
import { commit } from "../../events/commit";
import { invalidField } from "../../lib/errors";
import { assertMergedWithinBounds } from "../../lib/json-bounds";
import { type AgentRow, findAgent } from "../agents/queries";
import { teamIdsOfUser } from "../teams/queries";
import type { ConversationScope } from "./access";
import {
  assigneeActivity,
  muteActivity,
  noteClock,
  priorityActivity,
  statusActivity,
  teamActivity,
} from "./activity";
import { changedAttributes, changeEvents, firstRow } from "./events";
import { conversationHooks } from "./hooks";
import { callerUserId } from "./policy";
import { type NewConversation, updateConversationIf, updateConversationRow } from "./queries";
import type { ConversationUpdate } from "./schema.actions";
import { checkAssignee, checkConversationAttributes, checkTeam } from "./service";

/**
 * Writes `values` and the events of what they change, in one batch. With `guard`, the update
 * (and so its events) happens only if the row still matches it: a timed change racing another
 * tick or a person leaves the row as it was, and the row is returned unchanged.
 */
async function save(
  scope: ConversationScope,
  row: ConversationRow,
  values: Partial<NewConversation>,
  guard?: SQL,
): Promise<ConversationRow> {
  const { deps } = scope;
  const write = { ...values, updatedAt: deps.now() };
  const changes = changeEvents(row, changedAttributes(row, { ...row, ...write }));
  const events = guard ? changes.map((e) => ({ ...e, ifChanged: true })) : changes;
  const update = guard
    ? updateConversationIf(deps.db, row.id, write, guard)
    : updateConversationRow(deps.db, row.id, write);
  const results = await commit(deps, [update], events, {
    conversation: (r) => firstRow<ConversationRow>(r),
  });
  return firstRow<ConversationRow>(results) ?? row;
}

/** PATCH: priority, and custom / additional attributes merged into the current ones. */
export async function updateConversation(
  scope: ConversationScope,
  row: ConversationRow,
  input: ConversationUpdate,
): Promise<ConversationRow> {
  const values: Partial<NewConversation> = {};
  if (input.priority !== undefined) {
    Object.assign(
      values,
      { priority: input.priority },
      noteClock(scope, row.priority !== input.priority),
    );
  }
  if (input.custom_attributes !== undefined) {
    const checked = await checkConversationAttributes(scope, input.custom_attributes);
    values.customAttributes = { ...row.customAttributes, ...checked };
    assertMergedWithinBounds("custom_attributes", values.customAttributes);
  }
  if (input.additional_attributes !== undefined) {
    values.additionalAttributes = { ...row.additionalAttributes, ...input.additional_attributes };
    assertMergedWithinBounds("additional_attributes", values.additionalAttributes);
  }
  const after = await save(scope, row, values);
  await priorityActivity(scope, row, after);
  return after;
}

export type StatusChange = { status?: ConversationStatus; snoozed_until?: number | null };

/** A timed change's condition (still due) and what else it writes (the clock it restarts). */
export type StatusCondition = { guard: SQL; values?: Partial<NewConversation> };

/**
 * Chatwoot parity (toggle_status): a given status is set; none toggles open ↔ resolved and
 * brings pending or snoozed back to open. snoozed_until only survives on snoozed. A bot
 * opening a pending conversation hands it off to humans, who are then awaited.
 */
export async function toggleStatus(
  scope: ConversationScope,
  row: ConversationRow,
  input: StatusChange,
  condition?: StatusCondition,
): Promise<ConversationRow> {
  const now = scope.deps.now();
  const status: ConversationStatus = input.status ?? (row.status === "open" ? "resolved" : "open");
  const snoozedUntil = status === "snoozed" ? (input.snoozed_until ?? null) : null;
  if (snoozedUntil !== null && snoozedUntil <= now) {
    throw invalidField("snoozed_until", "must be in the future");
  }
  const values: Partial<NewConversation> = { ...condition?.values, status, snoozedUntil };
  if (status !== row.status) {
    // Chatwoot parity: the status change's activity message moves last_activity_at (every
    // message does, Message#set_conversation_activity), so a conversation an agent reopens is
    // not auto-resolved for its old idleness at the next tick.
    values.lastActivityAt = values.lastActivityAt ?? now;
  }
  const handoff = scope.actor.kind === "bot" && row.status === "pending" && status === "open";
  if (handoff) {
    values.waitingSince = row.waitingSince ?? now;
  }
  const after = await save(scope, row, values, condition?.guard);
  if (after !== row) {
    await statusActivity(scope, row, after);
    await conversationHooks().statusChanged(scope, row, after);
  }
  return after;
}

/** toggle_priority (and automation's change_priority): the new value and its activity note. */
export async function setPriority(
  scope: ConversationScope,
  row: ConversationRow,
  priority: ConversationRow["priority"],
) {
  // Its note (priorityActivity) moves last_activity_at, as the other notes do.
  const after = await save(scope, row, {
    priority,
    ...noteClock(scope, row.priority !== priority),
  });
  await priorityActivity(scope, row, after);
  return after;
}

export type AssignmentInput = { assignee_id?: number | null; team_id?: number | null };

export type AssignmentResult =
  | { kind: "agent"; agent: AgentRow | null }
  | { kind: "team"; team: TeamRow | null }
  | { kind: "none" };

/** Chatwoot parity (assignments#create): assignee_id wins over team_id; neither changes nothing. */
export async function assign(
  scope: ConversationScope,
  row: ConversationRow,
  input: AssignmentInput,
): Promise<AssignmentResult> {
  const { db } = scope.deps;
  if (input.assignee_id !== undefined) {
    const userId = input.assignee_id;
    if (userId === null) {
      await save(scope, row, { assigneeId: null, ...noteClock(scope, row.assigneeId !== null) });
      await assigneeActivity(scope, row, null);
      return { kind: "agent", agent: null };
    }
    await checkAssignee(scope, row.inboxId, userId);
    // Assigned by hand: it leaves the auto-assignment queue.
    await save(scope, row, {
      assigneeId: userId,
      assignmentQueuedAt: null,
      ...noteClock(scope, row.assigneeId !== userId),
    });
    await assigneeActivity(scope, row, userId);
    return { kind: "agent", agent: (await findAgent(db, scope.account.id, userId)) ?? null };
  }
  if (input.team_id !== undefined) {
    const team = input.team_id === null ? null : await checkTeam(scope, input.team_id);
    const teamId = team?.id ?? null;
    await save(scope, row, { teamId, ...noteClock(scope, row.teamId !== teamId) });
    await teamActivity(scope, row, team?.id ?? null);
    return { kind: "team", team };
  }
  return { kind: "none" };
}

/**
 * An assignment made only while `guard` holds (auto-assignment: still unassigned, the agent
 * still under the inbox's cap), with the events and note of a manual one. Answers the row as
 * left: unchanged when the guard no longer held.
 */
export async function assignIf(
  scope: ConversationScope,
  row: ConversationRow,
  userId: number,
  guard: SQL,
  values: Partial<NewConversation> = {},
): Promise<ConversationRow> {
  const clock = noteClock(scope, row.assigneeId !== userId);
  const after = await save(scope, row, { ...values, ...clock, assigneeId: userId }, guard);
  if (after !== row) {
    await assigneeActivity(scope, row, userId);
  }
  return after;
}

/** The team record's `is_member`, for the caller. */
export async function isCallerInTeam(scope: ConversationScope, team: TeamRow): Promise<boolean> {
  const userId = callerUserId(scope.actor);
  return (
    userId !== null && (await teamIdsOfUser(scope.deps.db, team.accountId, userId)).has(team.id)
  );
}

/** Chatwoot parity: POST custom_attributes replaces the whole hash. */
export async function replaceCustomAttributes(
  scope: ConversationScope,
  row: ConversationRow,
  attrs: Record<string, unknown>,
): Promise<ConversationRow> {
  const customAttributes = await checkConversationAttributes(scope, attrs);
  return save(scope, row, { customAttributes });
}

/**
 * Chatwoot parity (Conversation#mute!): muting resolves the conversation as `resolved!` does, so
 * a resolve by mute is a resolve like any other: its activity note, its status events (webhooks,
 * automation's conversation_resolved, the reports), the CSAT survey and a freed assignment slot
 * (the status hooks); then "Ann has muted the conversation". Already resolved, only the note.
 */
export async function mute(scope: ConversationScope, row: ConversationRow) {
  // Its notes: the resolve's (any performer with notes), the mute's (users only).
  const noted = row.status !== "resolved" || scope.actor.kind === "user";
  const after = await save(scope, row, {
    muted: true,
    status: "resolved",
    snoozedUntil: null,
    ...noteClock(scope, noted),
  });
  if (after.status !== row.status) {
    await statusActivity(scope, row, after);
    await conversationHooks().statusChanged(scope, row, after);
  }
  await muteActivity(scope, after, true);
  return after;
}

/** Chatwoot parity (Conversation#unmute!): the flag goes, with its note; the status stays. */
export async function unmute(scope: ConversationScope, row: ConversationRow) {
  const after = await save(scope, row, {
    muted: false,
    ...noteClock(scope, scope.actor.kind === "user"),
  });
  await muteActivity(scope, after, false);
  return after;
}
