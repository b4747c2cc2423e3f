import type { QueueMessage } from "../../env";
import { sendToQueue } from "../../events/queue-messages";
import { createLogger } from "../../lib/logger";
import { nowSeconds } from "../../lib/time";
import { markSent } from "./queries.writer";

/**
 * A mark waits at most this long for the writer's next transaction to carry it. Every lone mark
 * is a D1 write of its own; with many rooms each writing every second or two, a 1 s wait sent one
 * for every sixth message. Well inside the sweep's 30 s grace.
 */
const LONE_MARK_DELAY_MS = 3_000;

/**
 * The log writer's outbox relay: sends the outbox rows its transactions committed to the EVENTS
 * queue, and records them as sent without a D1 round trip of their own: the marks ride on the
 * writer's next transaction (or go alone after a few seconds of quiet). A row is marked only once
 * the queue took it; a crash in between leaves rows unmarked, which the cron sweep sends again
 * and the consumer's idempotent listeners absorb.
 */
export class OutboxRelay {
  private marks: number[] = [];
  /** When the oldest mark still waiting began to wait. */
  private waitingSince = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly queue: Queue<QueueMessage>,
    private readonly d1: D1Database,
  ) {}

  /** Fire and forget: an event that fails to go out stays unmarked for the sweep. */
  send(ids: number[]): void {
    if (ids.length === 0) {
      return;
    }
    void this.sendNow(ids).catch((err) => {
      createLogger({ source: "writer" }).error("outbox rows not sent to the queue", {
        ids,
        error: err,
      });
    });
  }

  /** The marks to add to a transaction about to commit; `giveBack` them if it fails. */
  takeIds(): number[] {
    // The timer is not cleared: re-arming one after every send cost ~3% of a busy isolate's CPU
    // (nodejs_compat's timers are not cheap). When it fires it finds nothing, or marks younger
    // than the delay, and waits on for them.
    return this.marks.splice(0);
  }

  /** The transaction that carried these marks failed: keep them for the next one. */
  giveBack(ids: number[]): void {
    if (ids.length > 0) {
      this.wait(ids);
      this.schedule();
    }
  }

  private async sendNow(ids: number[]): Promise<void> {
    await sendToQueue(this.queue, "event", ids, { sent: (chunk) => this.wait(chunk) });
    this.schedule();
  }

  private wait(ids: number[]): void {
    if (this.marks.length === 0) {
      this.waitingSince = Date.now();
    }
    this.marks.push(...ids);
  }

  private schedule(delay = LONE_MARK_DELAY_MS): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const left = this.waitingSince + LONE_MARK_DELAY_MS - Date.now();
      if (this.marks.length > 0 && left > 0) {
        this.schedule(left);
        return;
      }
      const ids = this.takeIds();
      if (ids.length > 0) {
        void markSent(this.d1, ids, nowSeconds())
          .run()
          .catch(() => this.giveBack(ids));
      }
    }, delay);
  }
}
