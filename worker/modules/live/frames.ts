import type { ControlFrame, Frame, Numbered } from "../../realtime/protocol";
import type { ConversationJson } from "../conversations/schema";
import type { Message, PublicMessage } from "../messages/schema";
import type { UserRef } from "../users/schema";

/**
 * The slim conversation live frames carry (the record's keys, plus the ids of what it links
 * to); clients fetch the full record over HTTP.
 */
export type ConversationSummary = Pick<
  ConversationJson,
  | "id"
  | "uuid"
  | "inbox_id"
  | "status"
  | "priority"
  | "snoozed_until"
  | "muted"
  | "last_activity_at"
  | "updated_at"
> & { contact_id: number; assignee_id: number | null; team_id: number | null };

/** What a contact may learn about its own conversation. */
export type ConversationForContact = Pick<
  ConversationSummary,
  "id" | "uuid" | "status" | "snoozed_until"
>;

export type LiveAssignee = UserRef | null;
type Summary = ConversationSummary;
type Read = { id: number; by: "contact" | "agent"; at: number; seq: number | null };

/** The frames of records, for either audience of a room or for the account feed. */
export type RecordFrame =
  | Frame<"message.created", Message | PublicMessage>
  | Frame<"message.updated", Message | PublicMessage>
  | Frame<"conversation.created", Summary>
  | Frame<"conversation.updated", Summary | (Summary & { changed_attributes: unknown })>
  | Frame<
      "conversation.status_changed",
      Summary | (Summary & { previous_status: string }) | ConversationForContact
    >
  | Frame<
      "conversation.assignee_changed",
      | Summary
      | (Summary & { assignee: LiveAssignee; previous_assignee_id: number | null })
      | { id: number; assignee: LiveAssignee }
    >
  | Frame<"conversation.read", Read>;

/** Every frame a socket can receive (docs/realtime.md lists them with examples). */
export type ServerFrame = Numbered<ControlFrame | RoomFrame>;

/**
 * The account feed's `message.created`: not the message's own frame (that one is the room's)
 * but its conversation's summary as the message left it, with what a list row shows of it.
 */
export type ConversationActivity = Summary & {
  unread_count: number;
  last_non_activity_message: Message;
};

/** A message the room acked that D1 keeps refusing: set aside, never stored (docs/realtime.md). */
export type RejectedMessage = { id: number; seq: number; echo_id: string | null };

export type RoomFrame = RecordFrame | Frame<"message.rejected", RejectedMessage>;
export type FeedFrame =
  | Exclude<RecordFrame, { event: "message.created" | "message.updated" }>
  | Frame<"message.created", ConversationActivity>;
