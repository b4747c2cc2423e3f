import type { ConversationPriority, ConversationStatus } from "../../db/schema";
import type { ControlFrame, Frame, Numbered } from "../../realtime/protocol";
import type { Message, PublicMessage } from "../messages/schema";

/** The slim conversation live frames carry; clients fetch the full record over HTTP. */
export type ConversationSummary = {
  id: number;
  uuid: string;
  inbox_id: number;
  contact_id: number;
  status: ConversationStatus;
  priority: ConversationPriority | null;
  assignee_id: number | null;
  team_id: number | null;
  snoozed_until: number | null;
  muted: boolean;
  last_activity_at: number;
  updated_at: number;
};

/** What a contact may learn about its own conversation. */
export type ConversationForContact = Pick<
  ConversationSummary,
  "id" | "uuid" | "status" | "snoozed_until"
>;

export type LiveAssignee = { id: number; name: string; avatar_url: string } | null;
type Summary = ConversationSummary;
type Read = { id: number; by: "contact" | "agent"; at: number };

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
export type ServerFrame = Numbered<ControlFrame | RecordFrame>;

export type RoomFrame = RecordFrame;
export type FeedFrame = RecordFrame;
