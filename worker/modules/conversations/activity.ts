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
  if (actor.kind === "system") {
    // Auto-assignment, worded as the auto-resolve note ("… by system").
    return "system";
  }
  return actor.kind === "automation" ? "Automation System" : null;
}

/**
 * Chatwoot parity: every message, activity notes included, moves the conversation's
 * last_activity_at (Message#set_conversation_activity). A change that will write its note here
 * (`noted`, and a performer who gets notes) moves it in its own update, as a status change does;
 * last_activity_at is no watched attribute, so no event more. An idle conversation an agent has
 * just assigned, labelled or muted is then not auto-resolved for its old idleness, and it moves
 * up in lists sorted by last activity, as in Chatwoot.
 */
export const noteClock = (scope: ConversationScope, noted: boolean) =>
  noted && performerName(scope) !== null ? { lastActivityAt: scope.deps.now() } : {};

async function post(scope: ConversationScope, row: ConversationRow, content: string) {
  await createMessage({ ...scope, origin: scope.deps.origin }, row, {
    content,
    messageType: "activity",
  });
}

/**
 * Chatwoot's auto_resolved_days / _hours / _minutes: the largest whole unit of the account's
 * `auto_resolve_after` (ActivityMessageHandler#auto_resolve_message_key).
 */
export function autoResolvedText(minutes: number): string {
  const [count, unit] =
    minutes >= 1440 && minutes % 1440 === 0
      ? [minutes / 1440, "days"]
      : minutes >= 60 && minutes % 60 === 0
        ? [minutes / 60, "hours"]
        : [minutes, "minutes"];
  return `Conversation was marked resolved by system due to ${count} ${unit} of inactivity`;
}

/**
 * What the service's own status changes say: a resolve is the auto-resolve (Chatwoot's text);
 * a snoozed conversation waking up is told with Chatwoot's reopen text, signed "system" as its
 * auto-resolve is (Chatwoot's ReopenSnoozedConversationsJob writes no note at all, which leaves
 * a conversation's history silent about why it came back).
 */
function systemStatusText(scope: ConversationScope, status: string): string | null {
  if (status === "resolved") {
    const minutes = Number(scope.account.settings.auto_resolve_after ?? 0);
    return autoResolvedText(Number.isFinite(minutes) ? minutes : 0);
  }
  return status === "open" ? "Conversation was reopened by system" : null;
}

/**
 * After a mute or unmute: "Ann has muted the conversation" (Chatwoot's create_muted_message:
 * users only, written on every mute! and unmute!).
 */
export async function muteActivity(scope: ConversationScope, row: ConversationRow, muted: boolean) {
  if (scope.actor.kind === "user") {
    const verb = muted ? "muted" : "unmuted";
    await post(scope, row, `${scope.actor.user.name} has ${verb} the conversation`);
  }
}

/** After a status change: "Conversation was marked resolved by Ann". */
export async function statusActivity(
  scope: ConversationScope,
  before: ConversationRow,
  after: ConversationRow,
) {
  if (before.status === after.status) {
    return;
  }
  if (scope.actor.kind === "system") {
    const text = systemStatusText(scope, after.status);
    return text === null ? undefined : post(scope, after, text);
  }
  const by = performerName(scope);
  const text = STATUS[after.status];
  if (by !== null && text) {
    await post(scope, after, text.replace("%", by));
  }
}

/**
 * After a priority change, Chatwoot's conversations.activity.priority added / updated / removed
 * (PriorityActivityMessageHandler): "Ann set the priority to urgent", "Ann changed the priority
 * from low to urgent", "Ann removed the priority"; automation signs "Automation System".
 */
export async function priorityActivity(
  scope: ConversationScope,
  before: ConversationRow,
  after: ConversationRow,
) {
  const by = performerName(scope);
  const [from, to] = [before.priority, after.priority];
  if (by === null || from === to) {
    return;
  }
  const text =
    to === null
      ? `${by} removed the priority`
      : from === null
        ? `${by} set the priority to ${to}`
        : `${by} changed the priority from ${from} to ${to}`;
  await post(scope, after, text);
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
