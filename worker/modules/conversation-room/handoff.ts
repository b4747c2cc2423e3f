import { createLogger } from "../../lib/logger";
import type { FeedEvent } from "../../realtime/account-feed";

/** What a room leaves to the account's writer to pass on once D1 holds the rows concerned. */
export type Handoff = {
  /** The account feed's frames, in the room's order, each with its group's last seq. */
  frames: { seq: number; event: FeedEvent }[];
  /** Outbox rows the room wrote to D1 itself (messages with files), for the writer to send. */
  outbox: number[];
};

/**
 * The room's side of the hand-off: each committed group's feed frame waits for the writer call
 * that carries the group's last message (its seq) to D1, and goes with it; the outbox rows of the
 * room's own D1 writes go with the next call. The writer sends them on once its transaction
 * commits, for all its rooms at once (log-writer.ts). Held in memory only: a room restarted
 * before its log reached D1 sends no frames for it (the feed is best-effort; lists refetch).
 */
export class RoomHandoff {
  private frames: Handoff["frames"] = [];
  private outbox: number[] = [];
  /** The account of what waits (the writer of an empty log is named by it). */
  accountId = 0;

  /** A group's frame, once its messages up to `seq` are in D1. */
  frame(accountId: number, seq: number, event: FeedEvent): void {
    this.accountId = accountId;
    this.frames.push({ seq, event });
  }

  /** Outbox rows already in D1 (the room's own write), for the queue. */
  sent(accountId: number, ids: number[]): void {
    this.accountId = accountId;
    this.outbox.push(...ids);
  }

  /** Something waits. */
  pending(): boolean {
    return this.frames.length > 0 || this.outbox.length > 0;
  }

  /** What a call that carries the log up to `seq` takes along (everything, by default). */
  take(seq = Number.POSITIVE_INFINITY): Handoff {
    const n = this.frames.findIndex((f) => f.seq > seq);
    const frames = this.frames.splice(0, n < 0 ? this.frames.length : n);
    return { frames, outbox: this.outbox.splice(0) };
  }

  /** The call failed (D1 may not have its rows): they go with a later one, in front. */
  giveBack(h: Handoff): void {
    this.frames.unshift(...h.frames);
    this.outbox.unshift(...h.outbox);
  }

  /**
   * The log is empty but something waits (a write of the room's own with files, or frames whose
   * messages an earlier attempt stored): to the writer now. Not awaited: the same stub delivers
   * the room's next call after it. Lost if it fails (the outbox rows are the sweep's; frames
   * sent later would pass newer ones).
   */
  handOffRest(writer: { handOff(accountId: number, h: Handoff): Promise<void> }): void {
    void writer.handOff(this.accountId, this.take()).catch((err) => {
      createLogger({ source: "room" }).error("writer not handed the room's frames", { error: err });
    });
  }
}
