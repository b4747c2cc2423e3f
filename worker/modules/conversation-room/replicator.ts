import { and, count, eq, inArray, max } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations, type MessageRow, messages } from "../../db/schema";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError } from "../../lib/errors";
import { createLogger } from "../../lib/logger";
import type { RoomRelay } from "../../realtime/room-relay";
import { groupBatch } from "./group-batch";
import type { MessageIds } from "./message-ids";
import type { LogEntry, MessageLog } from "./queries.wal";
import type { AppendRequest } from "./types";

/** Logged messages written to D1 in one transaction at most. */
const MAX_BATCH = 200;
const MAX_BACKOFF_MS = 30_000;
/** How long a write that must follow the log (files, an edit) waits for it at most. */
const DRAIN_WAIT_MS = 10_000;
/** The alarm that writes the log after a crash of the room (set when writing starts). */
const SAFETY_MS = 5_000;

/** A logged message as D1 ended up holding it (`duplicate`: an earlier one with its key). */
export type Replicated = { row: MessageRow; duplicate: boolean };
type Waiter = { resolve: (r: Replicated) => void; reject: (err: unknown) => void };

/** D1's row is this logged message (not another row that took its id). */
const sameMessage = (row: MessageRow, logged: MessageRow | undefined) =>
  logged !== undefined &&
  row.conversationId === logged.conversationId &&
  row.seq === logged.seq &&
  row.createdAt === logged.createdAt &&
  row.content === logged.content &&
  row.senderId === logged.senderId &&
  row.idempotencyKey === logged.idempotencyKey;

const isForeignKey = (err: unknown) =>
  /FOREIGN KEY constraint failed/i.test(`${err} ${(err as Error)?.cause ?? ""}`);

/**
 * Writes the room's message log to D1 behind the acks: in seq order, many messages per D1
 * transaction (all that were logged while the previous one was under way, up to 200), each with
 * its outbox rows and reporting facts (group-batch.ts, the same statements a direct write
 * makes), then deletes them from the log and sends their outbox rows to the queue. A retry
 * never doubles a message: the batch is one transaction, and a message whose id D1 already holds
 * at its seq was written by an earlier attempt whose answer was lost; it leaves the log. A failed
 * write is retried at once when it can be repaired, else by the room's alarm, backing off.
 */
export class Replicator {
  private running: Promise<void> | undefined;
  private dirty = false;
  private failures = 0;
  /** Whether the room's alarm is set to come back (a crash before D1 has the log). */
  private armed = false;
  private readonly waiters = new Map<number, Waiter>();
  private readonly drained: (() => void)[] = [];

  constructor(
    private readonly log: MessageLog,
    private readonly db: () => Db,
    private readonly relay: RoomRelay,
    private readonly ids: MessageIds,
    /** The room's seq: renumbering moves it past the seqs it hands out. */
    private readonly seq: { raise(to: number): void },
    /** Asks the room's alarm to call `alarm()` at this time (or earlier). */
    private readonly arm: (at: number) => void,
    /** Counts one D1 transaction and the messages it stored (0: it failed). */
    private readonly countBatch: (messages: number) => void,
  ) {}

  /** Starts writing what the log holds, unless a round is under way (it takes it then). */
  kick(): void {
    if (!this.armed && this.log.size() > 0) {
      this.armed = true;
      this.arm(Date.now() + SAFETY_MS);
    }
    if (this.running) {
      this.dirty = true;
      return;
    }
    this.running = this.round().finally(() => {
      this.running = undefined;
      if (this.dirty) {
        this.dirty = false;
        this.kick();
      }
    });
  }

  /** Resolves with the row as D1 holds it once the logged message `id` is there. */
  replicated(id: number): Promise<Replicated> {
    return new Promise((resolve, reject) => this.waiters.set(id, { resolve, reject }));
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
        this.kick();
      });
    }
  }

  /** The alarm: the retry after a failure, or the first write after a restart. */
  async alarm(): Promise<void> {
    this.armed = false;
    if (this.log.size() === 0) {
      return;
    }
    this.kick();
    await this.running;
  }

  private async round(): Promise<void> {
    for (;;) {
      this.dirty = false;
      const entries = this.log.oldest(MAX_BATCH);
      if (entries.length === 0) {
        for (const done of this.drained.splice(0)) {
          done();
        }
        return;
      }
      try {
        await this.write(entries);
        this.failures = 0;
      } catch (err) {
        if (await this.repair(entries, err).catch(() => false)) {
          continue;
        }
        this.failures += 1;
        const wait = Math.min(MAX_BACKOFF_MS, 250 * 2 ** this.failures);
        createLogger({ source: "room" }).error("message log not written to D1; retrying", {
          error: err,
          entries: entries.length,
          retryInMs: wait,
        });
        this.arm(Date.now() + wait);
        return;
      }
    }
  }

  private async write(entries: LogEntry[]): Promise<void> {
    const db = this.db();
    const group = entries.map((e) => ({ req: e.req as AppendRequest, seq: e.seq, id: e.id }));
    const batch = await groupBatch(db, group);
    const marks = this.relay.take();
    const statements = marks ? [...batch.statements, marks.statement] : batch.statements;
    let results: unknown[][];
    try {
      results = (await db.batch(statements as never)) as unknown[][];
    } catch (err) {
      this.countBatch(0);
      if (marks) {
        this.relay.giveBack(marks.ids);
      }
      throw err;
    }
    this.countBatch(entries.length);
    const { stored } = batch.read(results);
    this.done(entries);
    this.relay.send(stored.flatMap((s) => s.eventIds));
  }

  /** These entries are in D1: out of the log, and their waiters answered. */
  private done(entries: LogEntry[], earlier?: Map<number, MessageRow>): void {
    this.log.remove(entries.map((e) => e.id));
    for (const e of entries) {
      const waiter = this.waiters.get(e.id);
      this.waiters.delete(e.id);
      const row = earlier?.get(e.id);
      waiter?.resolve(row ? { row, duplicate: true } : { row: e.row, duplicate: false });
    }
  }

  /**
   * Sorts out a write D1 refused for what it holds: messages an earlier attempt wrote leave the
   * log; ids or seqs taken by rows written straight into D1 (an import) are replaced, in the same
   * order, after them; a conversation deleted meanwhile drops its log. True: try again now.
   */
  private async repair(entries: LogEntry[], err: unknown): Promise<boolean> {
    if (!isUniqueViolation(err) && !isForeignKey(err)) {
      return false;
    }
    const db = this.db();
    const conversationId = (entries[0] as LogEntry).req.conversationId;
    const keys = entries.flatMap((e) => e.row.idempotencyKey ?? []);
    const [atIds, top, exists, byKey] = (await db.batch([
      db
        .select()
        .from(messages)
        .where(
          inArray(
            messages.id,
            entries.map((e) => e.id),
          ),
        ),
      db
        .select({ seq: max(messages.seq) })
        .from(messages)
        .where(eq(messages.conversationId, conversationId)),
      db.select({ n: count() }).from(conversations).where(eq(conversations.id, conversationId)),
      db
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.conversationId, conversationId),
            inArray(messages.idempotencyKey, keys.length > 0 ? keys : [""]),
          ),
        ),
    ])) as [MessageRow[], { seq: number | null }[], { n: number }[], MessageRow[]];
    if ((exists[0]?.n ?? 0) === 0) {
      const all = this.log.oldest(Number.MAX_SAFE_INTEGER);
      this.log.remove(all.map((e) => e.id));
      for (const e of all) {
        this.waiters.get(e.id)?.reject(new ApiError("not_found"));
        this.waiters.delete(e.id);
      }
      return true;
    }
    const logged = new Map(entries.map((e) => [e.id, e]));
    const mine = atIds.filter((r) => sameMessage(r, logged.get(r.id)?.row));
    // Stored by an earlier message with the same key (under another id): that one stands.
    const earlier = new Map<number, MessageRow>();
    for (const e of entries) {
      const row = byKey.find((r) => r.idempotencyKey === e.row.idempotencyKey && r.id !== e.id);
      if (row && !mine.some((m) => m.id === e.id)) {
        earlier.set(e.id, row);
      }
    }
    if (mine.length > 0 || earlier.size > 0) {
      const ids = new Set([...mine.map((r) => r.id), ...earlier.keys()]);
      this.done(
        entries.filter((e) => ids.has(e.id)),
        earlier,
      );
      return true;
    }
    const taken = new Set(atIds.map((r) => r.id));
    const fresh = taken.size > 0 ? await this.freshIds(taken.size) : [];
    // Synchronous from here: no message is logged while the log is renumbered.
    const all = this.log.oldest(Number.MAX_SAFE_INTEGER);
    const d1Seq = top[0]?.seq ?? 0;
    const first = all[0];
    if (!first || (taken.size === 0 && d1Seq < first.seq)) {
      return false;
    }
    let seq = Math.max(d1Seq, first.seq - 1);
    for (const e of all) {
      const id = taken.has(e.id) ? (fresh.shift() ?? e.id) : e.id;
      seq = d1Seq >= first.seq ? seq + 1 : e.seq;
      this.log.renumber(e, id, seq);
      const waiter = this.waiters.get(e.id);
      if (waiter && id !== e.id) {
        this.waiters.delete(e.id);
        this.waiters.set(id, waiter);
      }
    }
    this.seq.raise(seq);
    return true;
  }

  private async freshIds(n: number): Promise<number[]> {
    this.ids.discard();
    return this.ids.take(n);
  }
}
