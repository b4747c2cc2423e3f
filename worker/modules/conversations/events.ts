import type { ConversationRow } from "../../db/schema";
import type { AnyDomainEvent, ChangedAttributes } from "../../events/types";

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

/**
 * The events of a change to a conversation (Chatwoot's order: status first), recorded in the
 * batch of the update itself. `changed` is computed before the write, from the row the caller
 * loaded; the live-only ones tell the room and feed about the assignee and team.
 */
export function changeEvents(row: ConversationRow, changed: ChangedAttributes): AnyDomainEvent[] {
  if (Object.keys(changed).length === 0) {
    return [];
  }
  const base = { accountId: row.accountId, conversation: row.id };
  const data = { inbox_id: row.inboxId, changed_attributes: changed };
  const events: AnyDomainEvent[] = [];
  if (changed.status) {
    const previous_status = row.status;
    events.push({
      ...base,
      name: "conversation.status_changed",
      data: { ...data, previous_status },
    });
  }
  events.push({ ...base, name: "conversation.updated", data });
  if (changed.assignee_id) {
    const previous_assignee_id = row.assigneeId;
    events.push({ ...base, name: "assignee.changed", data: { previous_assignee_id } });
  }
  if (changed.team_id) {
    events.push({ ...base, name: "team.changed", data: { previous_team_id: row.teamId } });
  }
  return events;
}

/** The first row of a statement's results: what an UPDATE … RETURNING left. */
export const firstRow = <T>(results: unknown[], at = 0) => (results[at] as T[] | undefined)?.[0];
