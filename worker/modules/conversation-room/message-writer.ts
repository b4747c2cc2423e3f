import type { Db } from "../../db/client";
import type { AttachmentRow, ConversationRow, MessageRow } from "../../db/schema";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError } from "../../lib/errors";
import type { RoomRelay } from "../../realtime/room-relay";
import { type Counters, findByIdempotencyKeys, isGuardRefusal, maxSeq } from "../messages/queries";
import type { RoomConversationCache } from "./conversation-cache";
import { groupBatch } from "./group-batch";
import { MessageIds } from "./message-ids";
import { MessageLog } from "./queries.wal";
import { Replicator } from "./replicator";
import { type Ready, RoomCommit } from "./room-commit";
import type { AppendRequest, AppendResult, Presented } from "./types";

export type { AppendRequest, AppendView, MessageView, Presented } from "./types";

/** Messages committed to D1 in one batch at most; keeps a batch well under D1's limits. */
const MAX_GROUP = 40;

/** A place in the queue: taken when a message arrives, filled once its checks pass. */
type Slot = Omit<Ready, "req"> & { req?: AppendRequest; cancelled: boolean };
type Pending = Slot & Ready;

/** A message's place in the writer's order, held while it is checked (socket messages). */
export type Place = {
  fill(req: AppendRequest): Promise<AppendResult>;
  /** Gives the place up (refused, or answered without a write); no-op once filled. */
  cancel(): void;
};

const clash = (err: unknown, column: string) =>
  isUniqueViolation(err) &&
  new RegExp(`messages\\.${column}\\b`).test(`${err} ${(err as Error).cause ?? ""}`);

/**
 * The room's message writer. Messages queue in arrival order; those that arrive while a D1 write
 * is in flight are committed together in the next batch (group commit), so one conversation's
 * throughput is not bounded by one D1 round trip per message. A group takes its seqs when it
 * commits, synchronously and in queue order, and gives them back if the batch fails, so seqs
 * are arrival order without gaps. Groups commit strictly one after another.
 */
export class MessageWriter {
  private lastSeq = 0;
  private ready: Promise<void> | undefined;
  private readonly queue: Slot[] = [];
  private draining = false;
  private readonly ids: MessageIds;
  private readonly kv: SyncKvStorage;
  private readonly log: MessageLog;
  private readonly replicator: Replicator;
  private readonly inRoom: RoomCommit;

  constructor(
    storage: DurableObjectStorage,
    private readonly db: () => Db,
    /** Runs `step` in the room's ordered chain (shared with other broadcasts). */
    private readonly enqueue: (step: () => Promise<void>) => Promise<void>,
    /** Called in seq order once a message is stored (the room broadcasts it). */
    private readonly written: (
      row: MessageRow,
      attachments: AttachmentRow[],
      req: AppendRequest,
      counters: Counters,
    ) => Presented,
    /** Sends the group's outbox rows to the queue; its sent-marks ride on the next group. */
    private readonly relay: RoomRelay,
    /** Asks the room's alarm for a retry of the log's replication at this time (or earlier). */
    arm: (at: number) => void,
    /** Keeps the conversation row as each group's batch left it. */
    private readonly conversation?: RoomConversationCache,
    /** Once per committed group, after its messages: the row as the batch left it (the feed). */
    private readonly committed?: (
      conversation: ConversationRow,
      views: Presented[],
      counters: Counters,
    ) => void,
  ) {
    this.kv = storage.kv;
    this.ids = new MessageIds(this.kv, db);
    this.log = new MessageLog(storage.sql);
    const count = (key: "d1_batches" | "d1_messages", n: number) => this.count(key, n);
    this.replicator = new Replicator(
      this.log,
      db,
      relay,
      this.ids,
      {
        raise: (to) => {
          this.lastSeq = Math.max(this.lastSeq, to);
          this.kv.put("last_seq", this.lastSeq);
        },
      },
      arm,
      count,
    );
    this.inRoom = new RoomCommit(
      storage,
      this.log,
      db,
      this.ids,
      this.replicator,
      { next: () => ++this.lastSeq, persist: () => this.kv.put("last_seq", this.lastSeq) },
      conversation,
      written,
      (row, views, counters) => this.committed?.(row, views, counters),
    );
    if (this.log.size() > 0) {
      // Logged before a restart: D1 gets it now.
      this.replicator.kick();
    }
  }

  /** The log's retry (the room's alarm); true while it still holds messages. */
  async alarm(): Promise<boolean> {
    await this.replicator.alarm();
    return this.log.size() > 0;
  }

  /** Resolves once D1 has every message logged so far (before a write that must follow). */
  drain(): Promise<void> {
    return this.replicator.drain();
  }

  /** The presenter's counters may have moved (a conversation change passed the room). */
  dropCounters(): void {
    this.inRoom.drop();
  }

  /**
   * Stores `req` (an idempotency key already stored answers its message, `duplicate: true`;
   * the key's unique index decides, so a first send costs no read).
   */
  append(req: AppendRequest): Promise<AppendResult> {
    return this.reserve(true).fill(req);
  }

  /**
   * Takes the next place in the order now, for a message that is still being checked: messages
   * are stored in the order they arrived even when their checks finish out of order (a socket's
   * own messages stay in the order it sent them). Later messages wait behind an unfilled place.
   */
  reserve(durable = false): Place {
    const slot: Slot = {
      durable,
      cancelled: false,
      seq: 0,
      id: 0,
      resolve: () => {},
      reject: () => {},
    };
    this.queue.push(slot);
    return {
      fill: (req) =>
        new Promise((resolve, reject) => {
          if (slot.req || slot.cancelled) {
            reject(new Error("this place in the queue was already used"));
            return;
          }
          Object.assign(slot, { req, resolve, reject });
          this.kick();
        }),
      cancel: () => {
        if (!slot.req && !slot.cancelled) {
          slot.cancelled = true;
          this.kick();
        }
      },
    };
  }

  private kick(): void {
    const head = this.queue[0];
    if (this.draining || !head || (!head.req && !head.cancelled)) {
      return;
    }
    this.draining = true;
    void this.enqueue(() => this.drainOnce());
  }

  /** Commits what is ready at the head now, then yields the chain to other broadcasts. */
  private async drainOnce(): Promise<void> {
    try {
      await this.commitGroup(this.take());
    } finally {
      this.draining = false;
      this.kick();
    }
  }

  /** The filled places at the head of the queue, up to the first one still being checked. */
  private take(): Pending[] {
    const group: Pending[] = [];
    while (group.length < MAX_GROUP) {
      const head = this.queue[0];
      if (!head || (!head.req && !head.cancelled)) {
        break;
      }
      this.queue.shift();
      if (head.req) {
        group.push(head as Pending);
      }
    }
    return group;
  }

  /** One bad message must not fail its neighbours: a failed group is sorted out here. */
  private async commitGroup(group: Pending[]): Promise<void> {
    if (group.length === 0) {
      return;
    }
    try {
      await this.commit(group);
      return;
    } catch (err) {
      if (clash(err, "seq")) {
        // D1 holds seqs the room did not write (an import): continue after them, same order.
        const stored = await maxSeq(this.db(), (group[0] as Pending).req.conversationId);
        this.lastSeq = Math.max(this.lastSeq, stored);
        this.queue.unshift(...group);
        return;
      }
      if (clash(err, "id")) {
        // An id of the room's block was taken in D1 behind its back: lease above it, same order.
        this.ids.discard();
        this.queue.unshift(...group);
        return;
      }
      if (clash(err, "idempotency_key")) {
        const rest = await this.answerRetries(group);
        if (rest.length < group.length) {
          this.queue.unshift(...rest);
          return;
        }
      }
      if (group.length > 1) {
        for (const item of group) {
          await this.commitGroup([item]);
        }
        return;
      }
      (group[0] as Pending).reject(isGuardRefusal(err) ? new ApiError("not_found") : err);
    }
  }

  /** Answers the group's retries of stored messages; returns the others. */
  private async answerRetries(group: Pending[]): Promise<Pending[]> {
    const keys = group.flatMap((p) => p.req.values.idempotencyKey ?? []);
    const conversationId = (group[0] as Pending).req.conversationId;
    const found = await findByIdempotencyKeys(this.db(), conversationId, keys);
    const byKey = new Map(found.map((row) => [row.idempotencyKey, row]));
    return group.filter((p) => {
      const row = byKey.get(p.req.values.idempotencyKey ?? null);
      if (row) {
        p.resolve({ message: row, duplicate: true, eventIds: [] });
      }
      return !row;
    });
  }

  private async commit(group: Pending[]): Promise<void> {
    await this.ensureSeq((group[0] as Pending).req.conversationId);
    if (!group.some((p) => (p.req.attachments ?? []).length > 0)) {
      await this.inRoom.commit(group);
      return;
    }
    // Files are recorded with ids only D1 gives: this group goes straight to D1, after the log.
    await this.replicator.drain();
    const ids = await this.ids.take(group.length);
    const first = this.lastSeq + 1;
    group.forEach((p, i) => {
      p.seq = ++this.lastSeq;
      p.id = ids[i] as number;
    });
    this.kv.put("last_seq", this.lastSeq);
    const db = this.db();
    const batch = await groupBatch(db, group);
    const marks = this.relay.take();
    const since = this.conversation?.mark() ?? 0;
    const statements = marks ? [...batch.statements, marks.statement] : batch.statements;
    let results: unknown[][];
    this.count("d1_batches", 1);
    try {
      results = (await db.batch(statements as never)) as unknown[][];
    } catch (err) {
      if (marks) {
        this.relay.giveBack(marks.ids);
      }
      // Nothing of the group is stored: its seqs go to whatever commits next.
      this.lastSeq = first - 1;
      this.kv.put("last_seq", this.lastSeq);
      throw err;
    }
    this.count("d1_messages", group.length);
    // The room's counters did not see this group: they are read again with the next one.
    this.inRoom.drop();
    const { stored, counters, conversation } = batch.read(results);
    if (conversation) {
      this.conversation?.wrote(conversation, since);
    }
    this.relay.send(stored.flatMap((s) => s.eventIds));
    const written: Presented[] = [];
    group.forEach((p, i) => {
      const { row, attachments, eventIds } = stored[i] as (typeof stored)[number];
      if (!row) {
        p.reject(new Error(`message ${p.seq} was not stored`));
        return;
      }
      const views = this.written(row, attachments, p.req, counters);
      written.push(views);
      p.resolve({ message: row, duplicate: false, ...views, eventIds });
    });
    if (conversation && written.length > 0) {
      this.committed?.(conversation, written, counters);
    }
  }

  /**
   * The room's D1 transactions and the messages they stored, kept in its own storage: what
   * `npm run bench -- realtime` reports as D1 transactions per 1,000 messages.
   */
  private count(key: "d1_batches" | "d1_messages", n: number): void {
    this.kv.put(key, (this.kv.get<number>(key) ?? 0) + n);
  }

  private ensureSeq(conversationId: number): Promise<void> {
    this.ready ??= (async () => {
      const stored = this.kv.get<number>("last_seq");
      // A room that never wrote (or lost its storage) continues after what D1 already holds.
      this.lastSeq = stored ?? (await maxSeq(this.db(), conversationId));
    })().catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }
}
