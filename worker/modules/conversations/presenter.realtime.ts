import type { ConversationRow } from "../../db/schema";
import type { ConversationForContact, ConversationSummary } from "../live/frames";

export function presentConversationSummary(row: ConversationRow): ConversationSummary {
  return {
    id: row.displayId,
    uuid: row.uuid,
    inbox_id: row.inboxId,
    contact_id: row.contactId,
    status: row.status,
    priority: row.priority,
    assignee_id: row.assigneeId,
    team_id: row.teamId,
    snoozed_until: row.snoozedUntil,
    muted: row.muted,
    last_activity_at: row.lastActivityAt,
    updated_at: row.updatedAt,
  };
}

export function presentConversationForContact(row: ConversationRow): ConversationForContact {
  return { id: row.displayId, uuid: row.uuid, status: row.status, snoozed_until: row.snoozedUntil };
}
