import { createLogger } from "../../lib/logger";
import type { RoomEvent } from "../../realtime/protocol";
import type { RoomFrame } from "../live/frames";
import type { SetAside } from "./replicator";

/** A message D1 keeps refusing left the log (replicator.ts): logged, and the sockets told. */
export function setAsideEvent({ entry, reason }: SetAside): RoomEvent<RoomFrame> {
  createLogger({ source: "room" }).error("message set aside: D1 keeps refusing it", {
    message_id: entry.id,
    seq: entry.seq,
    conversation_id: entry.req.conversationId,
    reason,
  });
  const frame = {
    event: "message.rejected" as const,
    data: { id: entry.id, seq: entry.seq, echo_id: entry.row.echoId },
  };
  return { agent: frame, contact: entry.row.private ? null : frame };
}
