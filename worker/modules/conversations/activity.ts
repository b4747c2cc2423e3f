import type { ConversationRow } from "../../db/schema";
import { findAgent } from "../agents/queries";
import { createMessage } from "../messages/service";
import { findTeam } from "../teams/queries";
import type { ConversationScope } from "./access";

/**
 * Chatwoot's activity messages (message_type 2, config/locales/en.yml conversations.activity):
 * the note a conversation's history shows when an agent changes it. They go through the room like
 * any message, so the account API lists them and both sides' sockets show them at once; like
 * Chatwoot, they are not webhook or automation events (createMessage records none for them).
 */
const STATUS: Record<string, string> = {
  resolved: "Conversation was marked resolved by %",
  open: "Conversation was reopened by %",
  pending: "Conversation was marked as pending by %",
  snoozed: "Conversation was snoozed by %",
};

/**
 * Chatwoot names the user who made the change (Current.user); automation signs as its system
 * name. Agent bots and platform apps are no Current.user there, so their changes get no note
 * (a bot's handoff is told by its own activity message).
 */
function performerName(scope: ConversationScope): string | null {
  const { actor } = scope;
  if (actor.kind === "user") {
    return actor.user.name;
  }
  return actor.kind === "automation" ? "Automation System" : null;
}

async function post(scope: ConversationScope, row: ConversationRow, content: string) {
  await createMessage({ ...scope, origin: scope.deps.origin }, row, {
    content,
    messageType: "activity",
  });
}

/** After a status change: "Conversation was marked resolved by Ann". */
export async function statusActivity(
  scope: ConversationScope,
  before: ConversationRow,
  after: ConversationRow,
) {
  const by = performerName(scope);
  const text = STATUS[after.status];
  if (by !== null && text && before.status !== after.status) {
    await post(scope, after, text.replace("%", by));
  }
}

/** After an assignee change: "Assigned to Bo by Ann", self-assigned, or unassigned. */
export async function assigneeActivity(
  scope: ConversationScope,
  before: ConversationRow,
  assigneeId: number | null,
) {
  const by = performerName(scope);
  if (by === null || before.assigneeId === assigneeId) {
    return;
  }
  const after = { ...before, assigneeId };
  if (assigneeId === null) {
    return post(scope, after, `Conversation unassigned by ${by}`);
  }
  const self = scope.actor.kind === "user" && scope.actor.user.id === assigneeId;
  if (self) {
    return post(scope, after, `${by} self-assigned this conversation`);
  }
  const agent = await findAgent(scope.deps.db, scope.account.id, assigneeId);
  await post(scope, after, `Assigned to ${agent?.user.name ?? ""} by ${by}`);
}

/** After a team change: "Assigned to Sales by Ann" or "Unassigned from Sales by Ann". */
export async function teamActivity(
  scope: ConversationScope,
  before: ConversationRow,
  teamId: number | null,
) {
  const by = performerName(scope);
  if (by === null || before.teamId === teamId) {
    return;
  }
  const { db } = scope.deps;
  const after = { ...before, teamId };
  if (teamId !== null) {
    const team = await findTeam(db, scope.account.id, teamId);
    return post(scope, after, `Assigned to ${team?.name ?? ""} by ${by}`);
  }
  const previous =
    before.teamId === null ? null : await findTeam(db, scope.account.id, before.teamId);
  await post(scope, after, `Unassigned from ${previous?.name ?? ""} by ${by}`);
}

/** After the label set changed: "Ann added billing, vip", then "Ann removed spam". */
export async function labelActivity(
  scope: ConversationScope,
  row: ConversationRow,
  before: string[],
  after: string[],
) {
  const by = performerName(scope);
  if (by === null) {
    return;
  }
  const added = after.filter((l) => !before.includes(l));
  const removed = before.filter((l) => !after.includes(l));
  if (added.length > 0) {
    await post(scope, row, `${by} added ${added.join(", ")}`);
  }
  if (removed.length > 0) {
    await post(scope, row, `${by} removed ${removed.join(", ")}`);
  }
}
