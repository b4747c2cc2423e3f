import type { Db } from "../db/client";
import type { Bindings } from "../env";
import { markSent } from "../events/queries";
import { sendToQueue } from "../events/queue-messages";
import { nowSeconds } from "../lib/time";

/**
 * A mark waits at most this long for the next message write to carry it. Every lone mark is a
 * D1 write of its own; with many rooms each writing every second or two, a 1 s wait sent one
 * for every sixth message. Well inside the sweep's 30 s grace.
 */
const LONE_MARK_DELAY_MS = 3_000;

/** Outbox ids per mark statement: D1 binds at most 100 values in one statement. */
const MARKS_PER_STATEMENT = 90;

/**
 * Sends the outbox rows the room committed to the EVENTS queue, and records them as sent
 * without a D1 round trip of their own: the marks ride along with the room's next message write
 * (or go alone after a few seconds of quiet). A crash in between only leaves rows unmarked, which the
 * cron sweep sends again and the consumer's idempotent listeners absorb.
 */
export class RoomRelay {
  private marks: number[] = [];
  /** When the oldest mark still waiting began to wait. */
  private waitingSince = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly env: Bindings,
    private readonly db: () => Db,
  ) {}

  /** Fire and forget: an event that fails to go out stays unmarked for the sweep. */
  send(ids: number[]): void {
    if (ids.length === 0) {
      return;
    }
    void this.sendNow(ids).catch((err) => {
      // biome-ignore lint/suspicious/noConsole: the Worker's log sink
      console.log(
        JSON.stringify({ level: "error", msg: "room relay failed", ids, error: String(err) }),
      );
    });
  }

  /**
   * The marks to add to a write that is about to commit (given back if it fails), in statements
   * of at most MARKS_PER_STATEMENT ids: a write of 200 messages leaves 200 marks behind it.
   */
  take(): { ids: number[]; statements: ReturnType<typeof markSent>[] } | null {
    const ids = this.takeIds();
    if (ids.length === 0) {
      return null;
    }
    const at = nowSeconds();
    const statements: ReturnType<typeof markSent>[] = [];
    for (let i = 0; i < ids.length; i += MARKS_PER_STATEMENT) {
      statements.push(markSent(this.db(), ids.slice(i, i + MARKS_PER_STATEMENT), at));
    }
    return { ids, statements };
  }

  /**
   * The marks waiting for a ride, for a write made elsewhere (the account's log writer builds
   * their statements); `giveBack` them if it fails.
   */
  takeIds(): number[] {
    // The timer is not cleared: re-arming one after every message's send cost ~3% of a busy
    // isolate's CPU with 200 rooms (nodejs_compat's timers are not cheap). When it fires it
    // finds nothing, or marks younger than the delay, and waits on for them.
    return this.marks.splice(0);
  }

  /**
   * A write's statements in one D1 batch, with the marks waiting for a ride (none when the write
   * must go `alone`); if the write fails, the marks wait for the next one.
   */
  async batchWithMarks(statements: readonly unknown[], alone = false): Promise<unknown[][]> {
    const marks = alone ? null : this.take();
    try {
      return (await this.db().batch([
        ...statements,
        ...(marks?.statements ?? []),
      ] as never)) as unknown[][];
    } catch (err) {
      if (marks) {
        this.giveBack(marks.ids);
      }
      throw err;
    }
  }

  /** The write that carried these marks failed: keep them for the next one. */
  giveBack(ids: number[]): void {
    this.wait(ids);
    this.schedule();
  }

  private async sendNow(ids: number[]): Promise<void> {
    await sendToQueue(this.env.EVENTS, "event", ids, { sent: (chunk) => this.wait(chunk) });
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
      const taken = this.take();
      if (taken) {
        const [first, ...rest] = taken.statements;
        void this.db()
          .batch([first as (typeof taken.statements)[number], ...rest])
          .catch(() => this.giveBack(taken.ids));
      }
    }, delay);
  }
}
