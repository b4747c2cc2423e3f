import type { CommittedEvent } from "../../events/types";
import type { ControlFrame, Frame, Numbered, RoomEvent } from "../../realtime/protocol";
import {
  presentConversationForContact,
  presentConversationSummary,
} from "../conversations/presenter.realtime";
import type { Message, PublicMessage } from "../messages/schema";

type Summary = ReturnType<typeof presentConversationSummary>;
type LiveAssignee = { id: number; name: string; avatar_url: string } | null;
type Read = { id: number; by: "contact" | "agent"; at: number };

/** The frames of records, for either audience of a room or for the account feed. */
export type RecordFrame =
  | Frame<"message.created", Message | PublicMessage>
  | Frame<"message.updated", Message | PublicMessage>
  | Frame<"conversation.created", Summary>
  | Frame<"conversation.updated", Summary | (Summary & { changed_attributes: unknown })>
  | Frame<
      "conversation.status_changed",
      | Summary
      | (Summary & { previous_status: string })
      | ReturnType<typeof presentConversationForContact>
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

/** What one committed event shows: to the conversation's room and/or to the account feed. */
export type LiveFrames = { room?: RoomEvent<RoomFrame>; feed?: FeedFrame };

/** What the live frames need besides the event: the assignee's public face. */
export type LiveExtras = { assignee?: LiveAssignee };

/**
 * The one mapping from a committed conversation event to its live frames. Message and typing
 * frames are not here: the room that commits them sends them, in seq order.
 */
export function liveFramesOf(
  { event, conversation }: CommittedEvent,
  extras: LiveExtras = {},
): LiveFrames {
  if (!conversation) {
    return {};
  }
  const summary = presentConversationSummary(conversation);
  switch (event.name) {
    case "conversation.created":
      return { feed: { event: "conversation.created", data: summary } };
    case "conversation.updated":
      return {
        room: {
          agent: {
            event: "conversation.updated",
            data: { ...summary, changed_attributes: event.data.changed_attributes },
          },
          contact: null,
        },
        feed: { event: "conversation.updated", data: summary },
      };
    case "conversation.status_changed":
      return {
        room: {
          agent: {
            event: "conversation.status_changed",
            data: { ...summary, previous_status: event.data.previous_status },
          },
          contact: {
            event: "conversation.status_changed",
            data: presentConversationForContact(conversation),
          },
        },
        feed: { event: "conversation.status_changed", data: summary },
      };
    case "assignee.changed": {
      const assignee = extras.assignee ?? null;
      return {
        room: {
          agent: {
            event: "conversation.assignee_changed",
            data: { ...summary, assignee, previous_assignee_id: event.data.previous_assignee_id },
          },
          contact: {
            event: "conversation.assignee_changed",
            data: { id: conversation.displayId, assignee },
          },
        },
        feed: { event: "conversation.assignee_changed", data: summary },
      };
    }
    case "team.changed":
      return { feed: { event: "conversation.updated", data: summary } };
    case "conversation.read": {
      const data = { id: conversation.displayId, by: event.data.by, at: event.data.at };
      const read = { event: "conversation.read", data } as const;
      return { room: { agent: read, contact: read } };
    }
    default:
      return {};
  }
}
