import { createLogger } from "../../lib/logger";
import type { RoomEvent } from "../../realtime/protocol";
import type { RoomFrame } from "../live/frames";
import type { LogEntry } from "./queries.wal";

/**
 * Attempts of the log's oldest message alone that D1 refuses for what the message is (an SQLite
 * error, not a lost connection) before it is set aside: about half a minute of retries (the
 * backoff passes 5 s only on paper: the safety alarm retries every 5 s while the log holds
 * messages).
 */
const SET_ASIDE_AFTER = 8;

/**
 * D1 refused the message itself (a constraint or a trigger, a size, a type), not the trip to it
 * nor a statement every message makes (a bug to fix, which setting messages aside would hide).
 */
export const refusedByD1 = (err: unknown) =>
  /constraint|too big|toobig|mismatch/i.test(`${err} ${(err as Error)?.cause ?? ""}`);

/** How often in a row D1 refused the log's oldest message alone. */
export class Refusals {
  private head = { id: 0, failures: 0 };

  /** Counts one more refusal of `id` alone; true (and the count starts over) when it is enough. */
  enough(id: number): boolean {
    this.head = { id, failures: this.head.id === id ? this.head.failures + 1 : 1 };
    if (this.head.failures < SET_ASIDE_AFTER) {
      return false;
    }
    this.head = { id: 0, failures: 0 };
    return true;
  }
}

/** A message D1 refused, set aside: what the room tells its sockets and records. */
export type SetAside = { entry: LogEntry; reason: string };

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
