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

/**
 * A message D1 keeps refusing must not hold the log forever (replicator.ts): after a batch fails,
 * the oldest message is written alone; when D1 refuses it alone often enough in a row for what it
 * is, it leaves the log for the room's record of messages set aside (its outbox row was never
 * written: no webhook hears of it).
 */
export class SetAsideRule {
  /** After a batch failed: the oldest message is written alone, to find one D1 refuses. */
  alone = false;
  private head = { id: 0, failures: 0 };

  /** A write of `entries` failed with `err`: true when the oldest is to be set aside now. */
  refused(entries: LogEntry[], err: unknown): boolean {
    const entry = entries[0] as LogEntry;
    if (entries.length > 1 || !refusedByD1(err)) {
      this.alone = true;
      return false;
    }
    const failures = this.head.id === entry.id ? this.head.failures + 1 : 1;
    this.head = { id: entry.id, failures };
    if (failures < SET_ASIDE_AFTER) {
      return false;
    }
    this.head = { id: 0, failures: 0 };
    this.alone = false;
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
