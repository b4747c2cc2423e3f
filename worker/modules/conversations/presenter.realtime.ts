import type { ConversationRow } from "./queries";

/** The slim conversation carried by live frames; clients fetch the full record over HTTP. */
export function presentConversationSummary(row: ConversationRow) {
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

/** What a contact may learn about its own conversation. */
export function presentConversationForContact(row: ConversationRow) {
  return { id: row.displayId, uuid: row.uuid, status: row.status, snoozed_until: row.snoozedUntil };
}
