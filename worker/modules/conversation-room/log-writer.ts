import { DurableObject } from "cloudflare:workers";
import { createDb } from "../../db/client";
import type { Bindings } from "../../env";
import { createLogger } from "../../lib/logger";
import { spanTimer } from "../../lib/spans";
import type { Handoff } from "../../realtime/room-frames";
import { type FeedStub, feedFor } from "../live/stubs";
import { OutboxRelay } from "./outbox-relay";
import { type ReadyCall, readyCall, type WriterCall, writerStatements } from "./writer-batch";

export type { WriterCall } from "./writer-batch";

/** Messages in one D1 transaction at most (rooms' calls are not split: one may exceed it alone). */
const MAX_MESSAGES = 200;

/** D1 has the room's entries (the writer passes on what they leave), or refused them (D1's words). */
export type WriterAnswer = { ok: true } | { ok: false; error: string };

type Waiting = { call: WriterCall; answer: (a: WriterAnswer) => void };
/** A call made ready for the transaction's statements. */
type Part = { w: Waiting; ready: ReadyCall };

/** What D1 said, with its cause when it adds words: the room's repairs and set-aside read them. */
function words(err: unknown): string {
  const said = (err as Error)?.message ?? String(err);
  const cause = (err as Error)?.cause;
  const more = cause ? ((cause as Error).message ?? String(cause)) : "";
  return more && !said.includes(more) ? `${said} ${more}` : said;
}

/**
 * The account's log writer (`writer:<accountId>`): its rooms' logs reach D1 through it, many
 * rooms per transaction. The calls that arrive while a transaction is under way go together in
 * the next one (up to MAX_MESSAGES), a handful of statements for all their messages
 * (writer-batch.ts: the rows group-batch.ts writes message by message, room after room); each
 * room is answered once D1 has its rows. Once a transaction commits, the writer passes on what
 * it leaves for all its rooms at once: its outbox rows in one queue send (OutboxRelay, whose
 * marks ride on the next transaction) and the rooms' feed frames in one RPC to the account feed
 * (each room's in its order: one kept stub delivers calls in order). A combined transaction D1
 * refuses is tried again room by room, so one room's refused message (or a conflict its repair
 * sorts out) fails that room alone. It holds nothing durable: each room keeps its log until its
 * answer says D1 has it, and makes one call at a time (its seq order holds); rows it had not sent
 * or marked are the cron sweep's. It counts its transactions and their messages (`counts`), kept
 * in its storage within a second (`d1_batches`, `d1_messages`: the realtime bench).
 */
/**
 * The counters reach storage at most this often: a storage write each transaction was a disk
 * sync each on workerd's one thread (about one per message in a sequential stream). A crash
 * loses the last second's counts, which only the bench reads.
 */
const COUNTS_EVERY_MS = 1_000;

export class LogWriter extends DurableObject<Bindings> {
  private waiting: Waiting[] = [];
  private running = false;
  private readonly relay = new OutboxRelay(this.env.EVENTS, this.env.DB);
  private readonly span = spanTimer(this.env);
  private feed: FeedStub | undefined;
  /** The counters, held in memory once read (a get per transaction cost more than its put). */
  private counted: { batches: number; messages: number } | undefined;
  private countsTimer: ReturnType<typeof setTimeout> | undefined;

  write(call: WriterCall): Promise<WriterAnswer> {
    return new Promise((answer) => {
      this.waiting.push({ call, answer });
      if (!this.running) {
        this.running = true;
        void this.run();
      }
    });
  }

  /** What a room's own D1 write left (nothing of its log waits): passed on at once. */
  async handOff(accountId: number, h: Handoff): Promise<void> {
    this.passOn(accountId, [], [h]);
  }

  private async run(): Promise<void> {
    // The calls made in this turn go in the first transaction too.
    await Promise.resolve();
    while (this.waiting.length > 0) {
      const calls = this.take();
      try {
        await this.flush(calls);
      } catch (err) {
        // Every call is answered, or its room would wait for ever (a second answer is a no-op).
        for (const w of calls) {
          w.answer({ ok: false, error: words(err) });
        }
      }
    }
    this.running = false;
  }

  /** The oldest calls, up to MAX_MESSAGES messages (at least one call). */
  private take(): Waiting[] {
    const calls: Waiting[] = [];
    let n = 0;
    while (this.waiting.length > 0) {
      const next = this.waiting[0] as Waiting;
      if (calls.length > 0 && n + next.call.entries.length > MAX_MESSAGES) {
        break;
      }
      n += next.call.entries.length;
      calls.push(this.waiting.shift() as Waiting);
    }
    return calls;
  }

  private async flush(calls: Waiting[]): Promise<void> {
    const db = createDb(this.env.DB);
    const parts: Part[] = [];
    for (const w of calls) {
      try {
        parts.push({ w, ready: await readyCall(db, this.env.DB, w.call) });
      } catch (err) {
        w.answer({ ok: false, error: words(err) });
      }
    }
    await this.commit(parts, this.relay.takeIds());
  }

  /**
   * One D1 transaction for `parts`, with the relay's `marks`; refused, the marks wait for the next
   * one and the same rows go again room by room.
   */
  private async commit(parts: Part[], marks: number[]): Promise<void> {
    if (parts.length === 0) {
      this.relay.giveBack(marks);
      return;
    }
    const built = writerStatements(
      this.env.DB,
      parts.map((p) => p.ready),
      marks,
    );
    let results: D1Result[];
    const messages = parts.reduce((n, p) => n + p.w.call.entries.length, 0);
    const end = this.span("d1 transaction");
    try {
      results = await this.env.DB.batch(built.statements);
      end({ messages });
    } catch (err) {
      end({ failed: true });
      this.count(0);
      this.relay.giveBack(marks);
      if (parts.length === 1) {
        (parts[0] as Part).w.answer({ ok: false, error: words(err) });
        return;
      }
      // Room by room: what D1 refused fails only the room it came from.
      for (const part of parts) {
        await this.commit([part], []);
      }
      return;
    }
    // D1 has them: answered as stored even if their outbox ids cannot be read back (those rows
    // then stay unsent, and the cron sweep sends them).
    let eventIds: number[][] = [];
    try {
      eventIds = built.eventIds(results);
    } catch {}
    const first = (parts[0] as Part).w.call.entries[0];
    this.passOn(
      first?.req.values.accountId ?? 0,
      eventIds.flat(),
      parts.map((p) => p.w.call),
    );
    for (const { w } of parts) {
      w.answer({ ok: true });
    }
    this.count(messages);
  }

  /**
   * Once D1 has the rows: the outbox rows to the queue in one send (chunked), and the feed
   * frames in one RPC, fire and forget (rows not sent are the sweep's; the feed is best-effort).
   */
  private passOn(accountId: number, eventIds: number[], handoffs: Handoff[]): void {
    this.relay.send(handoffs.reduce((ids, h) => ids.concat(h.outbox), eventIds));
    const frames = handoffs.flatMap((h) => h.frames.map((f) => f.event));
    if (frames.length === 0) {
      return;
    }
    this.feed ??= feedFor(this.env, accountId);
    void this.feed.publishAll(frames).catch((err) => {
      // A stub that saw its object fail stays broken: the next frames take a new one.
      this.feed = undefined;
      createLogger({ source: "writer" }).error("feed not told of messages", { error: err });
    });
  }

  /** Its transactions and their messages, as counted (storage has them within COUNTS_EVERY_MS). */
  counts(): { batches: number; messages: number } {
    const kv = this.ctx.storage.kv;
    this.counted ??= {
      batches: kv.get<number>("d1_batches") ?? 0,
      messages: kv.get<number>("d1_messages") ?? 0,
    };
    return this.counted;
  }

  private count(messages: number): void {
    const counted = this.counts();
    counted.batches += 1;
    counted.messages += messages;
    this.countsTimer ??= setTimeout(() => {
      this.countsTimer = undefined;
      this.ctx.storage.kv.put("d1_batches", counted.batches);
      this.ctx.storage.kv.put("d1_messages", counted.messages);
    }, COUNTS_EVERY_MS);
  }
}

/** The RPC surface of a writer stub (re-typed from the class: see stub.ts). */
export type WriterStub = Pick<LogWriter, "write" | "handOff">;

/** The account's writer: one per account, so its rooms' logs share transactions. */
export const writerFor = (env: Bindings, accountId: number): WriterStub =>
  env.WRITERS.get(env.WRITERS.idFromName(`writer:${accountId}`)) as unknown as WriterStub;
