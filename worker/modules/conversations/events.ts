import type { OutboxEntry } from "../../events/outbox";
import type { ChangedAttributes } from "../../events/types";
import type { ConversationScope } from "./access";
import type { ConversationRow } from "./queries";

/** The attributes whose change Chatwoot reports as conversation_updated, by JSON name. */
const WATCHED = {
  status: "status",
  assigneeId: "assignee_id",
  teamId: "team_id",
  priority: "priority",
  snoozedUntil: "snoozed_until",
  muted: "muted",
  customAttributes: "custom_attributes",
  additionalAttributes: "additional_attributes",
  waitingSince: "waiting_since",
  firstReplyCreatedAt: "first_reply_created_at",
} as const satisfies Partial<Record<keyof ConversationRow, string>>;

export function changedAttributes(
  before: ConversationRow,
  after: ConversationRow,
): ChangedAttributes {
  const changed: ChangedAttributes = {};
  for (const [column, name] of Object.entries(WATCHED) as [keyof typeof WATCHED, string][]) {
    if (JSON.stringify(before[column]) !== JSON.stringify(after[column])) {
      changed[name] = { previous_value: before[column], current_value: after[column] };
    }
  }
  return changed;
}

/** Emits what changed between two versions of a conversation, explicitly, after the write. */
export function emitChanges(
  scope: ConversationScope,
  before: ConversationRow,
  after: ConversationRow,
): void {
  const changed = changedAttributes(before, after);
  if (Object.keys(changed).length === 0) {
    return;
  }
  const { events } = scope.deps;
  events.emit("conversation.updated", { conversation: after, changed });
  if (changed.status) {
    events.emit("conversation.status_changed", {
      conversation: after,
      previousStatus: before.status,
    });
  }
  if (changed.assignee_id) {
    events.emit("assignee.changed", { conversation: after, previousAssigneeId: before.assigneeId });
  }
  if (changed.team_id) {
    events.emit("team.changed", { conversation: after, previousTeamId: before.teamId });
  }
}

/**
 * The outbox events of a change (Chatwoot's order: status first), recorded in the batch of the
 * update itself. `changed` is computed before the write, from the row the caller loaded.
 */
export function changeEvents(row: ConversationRow, changed: ChangedAttributes): OutboxEntry[] {
  if (Object.keys(changed).length === 0) {
    return [];
  }
  const payload = { inbox_id: row.inboxId, changed_attributes: changed };
  const base = { accountId: row.accountId, conversation: row.id, payload };
  return [
    ...(changed.status ? [{ ...base, name: "conversation_status_changed" as const }] : []),
    { ...base, name: "conversation_updated" as const },
  ];
}
