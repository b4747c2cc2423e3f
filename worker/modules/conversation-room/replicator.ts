import type { Db } from "../../db/client";
import type { MessageRow } from "../../db/schema";
import { createLogger } from "../../lib/logger";
import type { RoomHandoff } from "../../realtime/room-frames";
import { LogRepair, type Replicated, type Waiter } from "./log-repair";
import type { WriterAnswer, WriterStub } from "./log-writer";
import type { MessageIds } from "./message-ids";
import type { LogEntry, MessageLog } from "./queries.wal";
import { writerRequest } from "./queries.writer";
import { type SetAside, SetAsideRule } from "./set-aside";
import { WritePace } from "./write-pace";

/** Logged messages written to D1 in one transaction at most. */
const MAX_BATCH = 200;
/**
 * A call to the log writer carries at most this many bytes of requests: an RPC call is refused
 * past 32 MiB, and 200 messages of up to 150,000 characters (and their attributes) can pass it.
 */
export const MAX_CALL_BYTES = 8 * 1024 * 1024;
const MAX_BACKOFF_MS = 30_000;
/** How long a write that must follow the log (files, an edit) waits for it at most. */
const DRAIN_WAIT_MS = 10_000;
/** The alarm that writes the log after a crash of the room (set when writing starts). */
const SAFETY_MS = 5_000;

export type { Replicated } from "./log-repair";
export type { SetAside } from "./set-aside";

/**
 * Writes the room's message log to D1 behind the acks: in seq order, through the account's log
 * writer (log-writer.ts, which shares each D1 transaction among rooms), all that were logged while
 * the previous write was under way (up to 200), each with its outbox rows and reporting facts
 * (group-batch.ts, the same statements a direct write makes), then deletes them from the log; the
 * writer sends their outbox rows to the queue, and the room's feed frames with them. A retry
 * never doubles a message: the batch is one transaction, and a message whose id D1 already holds
 * at its seq was written by an earlier attempt whose answer was lost; it leaves the log. A failed
 * write is retried at once when it can be repaired, else by the room's alarm, backing off.
 */
export class Replicator {
  private running: Promise<void> | undefined;
  private dirty = false;
  private failures = 0;
  /** After a failure, new messages do not retry before this time: the alarm does, backing off. */
  private retryAt = 0;
  /** Whether the room's alarm is set to come back (a crash before D1 has the log). */
  private armed = false;
  private readonly waiters = new Map<number, Waiter>();
  private readonly drained: (() => void)[] = [];
  private readonly repairs: LogRepair;
  private readonly refusals = new SetAsideRule();
  private stub: { accountId: number; stub: WriterStub } | undefined;
  private readonly pace: WritePace;
  /** The log was read from storage (a restart): D1 may have its oldest entries already. */
  private stale: boolean;

  constructor(
    private readonly log: MessageLog,
    db: () => Db,
    /** What the room's commits leave for the writer to pass on (feed frames, outbox rows). */
    private readonly handoff: RoomHandoff,
    ids: MessageIds,
    /** The room's seq: renumbering moves it past the seqs it hands out. */
    seq: { raise(to: number): void },
    /** Asks the room's alarm to call `alarm()` at this time (or earlier). */
    private readonly arm: (at: number) => void,
    /** The account's log writer (log-writer.ts): the D1 transactions are its. */
    private readonly writer: (accountId: number) => WriterStub,
    /** Records a message set aside in the room and tells its sockets. */
    private readonly setAside: (aside: SetAside) => void,
  ) {
    this.pace = new WritePace(log);
    this.stale = log.size() > 0;
    this.repairs = new LogRepair(log, db, ids, seq, this.waiters, (entries, earlier) =>
      this.done(entries, earlier),
    );
  }

  /**
   * Starts writing what the log holds, unless a round is under way (it takes it then), or one
   * started a moment ago and nobody waits (`now` false): then a moment later (write-pace.ts).
   */
  kick(now = false): void {
    if (!this.armed && this.log.size() > 0) {
      this.armed = true;
      this.arm(Date.now() + SAFETY_MS);
    }
    if (this.running) {
      this.dirty = true;
      return;
    }
    if (Date.now() < this.retryAt) {
      return;
    }
    if (!this.pace.mayStart(now || this.waiters.size > 0, () => this.kick(true))) {
      return;
    }
    this.running = this.round().finally(() => {
      this.running = undefined;
      if (this.dirty) {
        this.dirty = false;
        // A drain waiting (an edit) does not wait for the gathering too.
        this.kick(this.drained.length > 0);
      }
    });
  }

  /**
   * Resolves with the row as D1 holds it once the logged message `id` is there, or with null
   * after `maxMs` (D1 refusing it meanwhile). Several callers may wait for one message (a retry
   * of a post still waiting): each is answered.
   */
  replicated(id: number, maxMs: number): Promise<Replicated | null> {
    return new Promise((resolve, reject) => {
      const before = this.waiters.get(id);
      const timer = setTimeout(() => resolve(null), maxMs);
      this.waiters.set(id, {
        resolve: (r) => {
          before?.resolve(r);
          clearTimeout(timer);
          resolve(r);
        },
        reject: (err) => {
          before?.reject(err);
          clearTimeout(timer);
          reject(err);
        },
      });
    });
  }

  /**
   * Resolves once everything logged so far is in D1 (before a write that must follow it), or
   * after `maxMs` while D1 keeps refusing the log: the write then goes ahead of it.
   */
  async drain(maxMs = DRAIN_WAIT_MS): Promise<void> {
    const until = Date.now() + maxMs;
    while (this.log.size() > 0 && Date.now() < until) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, until - Date.now());
        this.drained.push(() => {
          clearTimeout(timer);
          resolve();
        });
        this.kick(true);
      });
    }
  }

  /** The alarm: the retry after a failure, or the first write after a restart. */
  async alarm(): Promise<void> {
    this.armed = false;
    this.retryAt = 0;
    if (this.log.size() > 0) {
      this.kick(true);
      await this.running;
    }
    this.log.trim();
  }

  private async round(): Promise<void> {
    for (;;) {
      this.dirty = false;
      const entries = this.log.oldest(this.refusals.alone ? 1 : MAX_BATCH, MAX_CALL_BYTES);
      if (entries.length === 0) {
        // What the room's own write left, or frames whose messages a repair found in D1.
        if (this.handoff.pending()) {
          this.handoff.handOffRest(this.writerOf(this.handoff.accountId));
        }
        for (const done of this.drained.splice(0)) {
          done();
        }
        return;
      }
      if (this.stale) {
        this.stale = false;
        // Entries whose deletion had not committed before a crash: not written again.
        if (await this.repairs.skipWritten(entries).catch(() => false)) {
          continue;
        }
      }
      try {
        await this.write(entries);
        this.failures = 0;
        this.retryAt = 0;
        this.refusals.alone = false;
      } catch (err) {
        if (await this.repairs.repair(entries, err).catch(() => false)) {
          continue;
        }
        if (this.refusals.refused(entries, err)) {
          this.putAside(entries[0] as LogEntry, err);
          continue;
        }
        this.failures += 1;
        const wait = Math.min(MAX_BACKOFF_MS, 250 * 2 ** this.failures);
        createLogger({ source: "room" }).error("message log not written to D1; retrying", {
          error: err,
          entries: entries.length,
          retryInMs: wait,
        });
        this.retryAt = Date.now() + wait;
        this.arm(this.retryAt);
        return;
      }
    }
  }

  /** The oldest message leaves the log for the room's record of messages set aside. */
  private putAside(entry: LogEntry, err: unknown): void {
    const reason = String((err as Error)?.message ?? err).slice(0, 500);
    this.log.setAside(entry, reason);
    this.waiters.get(entry.id)?.reject(err);
    this.waiters.delete(entry.id);
    this.setAside({ entry, reason });
  }

  /**
   * One call to the account's log writer (log-writer.ts), which puts these entries in a D1
   * transaction shared with other rooms' and answers with this room's outcome; the feed frames of
   * the groups up to the last entry go along, for the writer to pass on once D1 has them. A
   * refusal, or a call that fails, leaves the log as it is (and the frames wait for the next).
   */
  private async write(entries: LogEntry[]): Promise<void> {
    const handoff = this.handoff.take((entries.at(-1) as LogEntry).seq);
    const call = {
      entries: entries.map(({ id, seq, req }) => ({ id, seq, req: writerRequest(req) })),
      ...handoff,
    };
    let answer: WriterAnswer;
    try {
      answer = await this.writerOf((entries[0] as LogEntry).req.values.accountId).write(call);
    } catch (err) {
      // A stub that saw its object fail stays broken: the next call takes a new one.
      this.stub = undefined;
      // The writer may have passed them on: the frames go again (a summary twice is harmless),
      // the outbox rows are left to the sweep (never sent twice).
      this.handoff.giveBack({ frames: handoff.frames, outbox: [] });
      throw err;
    }
    if (!answer.ok) {
      this.handoff.giveBack(handoff);
      throw new Error(answer.error);
    }
    this.done(entries);
  }

  /** The account's writer, its stub kept (naming it hashes the name; a stub costs to make). */
  private writerOf(accountId: number): WriterStub {
    if (this.stub?.accountId !== accountId) {
      this.stub = { accountId, stub: this.writer(accountId) };
    }
    return this.stub.stub;
  }

  /**
   * These entries are in D1: out of the log (out of storage with the next append, or when the
   * room is idle: queries.log.ts), and their waiters answered.
   */
  private done(entries: LogEntry[], earlier?: Map<number, MessageRow>): void {
    this.log.replicated(entries.map((e) => e.id));
    this.pace.idleTrim();
    for (const e of entries) {
      const waiter = this.waiters.get(e.id);
      this.waiters.delete(e.id);
      const row = earlier?.get(e.id);
      waiter?.resolve(row ? { row, duplicate: true } : { row: e.row, duplicate: false });
    }
  }
}
