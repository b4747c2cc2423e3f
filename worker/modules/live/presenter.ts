import type { CommittedEvent } from "../../events/types";
import type { RoomEvent } from "../../realtime/protocol";
import {
  presentConversationForContact,
  presentConversationSummary,
} from "../conversations/presenter";
import type { FeedFrame, LiveAssignee, RoomFrame } from "./frames";

/** What one committed event shows: to the conversation's room and/or to the account feed. */
export type LiveFrames = { room?: RoomEvent<RoomFrame>; feed?: FeedFrame };

/** What the live frames need besides the event: the assignee's public face. */
export type LiveExtras = { assignee?: LiveAssignee };

/**
 * The one mapping from a committed conversation event to its live frames. Message and typing
 * frames are not here: the room that commits them sends them, in seq order (a message's frames,
 * the feed's among them, come from its presenter: `presentForRoom`, `presentForFeed`).
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
      // The mark as the read stored it: `seq` tells apart a message stored in its second.
      const seq =
        event.data.by === "agent" ? conversation.agentLastSeenSeq : conversation.contactLastSeenSeq;
      const data = { id: conversation.displayId, by: event.data.by, at: event.data.at, seq };
      const read = { event: "conversation.read", data } as const;
      return { room: { agent: read, contact: read } };
    }
    default:
      return {};
  }
}
