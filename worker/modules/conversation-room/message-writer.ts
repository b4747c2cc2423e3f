import type { Db } from "../../db/client";
import type { ConversationRow } from "../../db/schema";
import type { RoomHandoff } from "../../realtime/room-frames";
import type { Counters } from "../messages/queries";
import type { RoomConversationCache } from "./conversation-cache";
import { DirectCommit } from "./direct-commit";
import { repairGroup } from "./group-failure";
import type { WriterStub } from "./log-writer";
import { MessageIds } from "./message-ids";
import { KeptKeys, MessageLog } from "./queries.wal";
import { Replicator, type SetAside } from "./replicator";
import { RoomCommit } from "./room-commit";
import { RoomSeq } from "./room-seq";
import type { AppendRequest, AppendResult, LogEntry, Presented, Written } from "./types";
import { type Pending, type Place, WriteQueue } from "./write-queue";

export type { AppendRequest, AppendView, MessageView, Presented } from "./types";
export type { Place } from "./write-queue";

/**
 * The room's message writer. Messages queue in arrival order; those that arrive while a D1 write
 * is in flight are committed together in the next batch (group commit), so one conversation's
 * throughput is not bounded by one D1 round trip per message. A group takes its seqs when it
 * commits, synchronously and in queue order, and gives them back if the batch fails, so seqs
 * are arrival order without gaps. Groups commit strictly one after another.
 */
export class MessageWriter {
  private readonly order: WriteQueue;
  private readonly seq: RoomSeq;
  private readonly ids: MessageIds;
  private readonly kv: SyncKvStorage;
  private readonly log: MessageLog;
  private readonly replicator: Replicator;
  private readonly inRoom: RoomCommit;
  private readonly direct: DirectCommit;
  /** In-flight appends by idempotency key, so a retry racing its original gets the same row. */
  private readonly inflight = new Map<string, Promise<AppendResult>>();

  constructor(
    storage: DurableObjectStorage,
    private readonly db: () => Db,
    /** Runs `step` in the room's ordered chain (shared with other broadcasts). */
    enqueue: (step: () => Promise<void>) => Promise<void>,
    /** Called in seq order once a message is stored (the room broadcasts it). */
    written: Written,
    /** What commits leave for the account's writer to pass on (feed frames, outbox rows). */
    handoff: RoomHandoff,
    /** The account's log writer: the log reaches D1 through it. */
    writer: (accountId: number) => WriterStub,
    /** Asks the room's alarm for a retry of the log's replication at this time (or earlier). */
    arm: (at: number) => void,
    /** A logged message D1 keeps refusing was set aside (the room tells its sockets). */
    setAside: (aside: SetAside) => void,
    /** Keeps the conversation row as each group's batch left it. */
    conversation?: RoomConversationCache,
    /** Once per committed group, after its messages: the row as the batch left it (the feed). */
    private readonly committed?: (
      conversation: ConversationRow,
      views: Presented[],
      counters: Counters,
    ) => void,
  ) {
    this.order = new WriteQueue(enqueue, (group) => this.commitGroup(group));
    this.kv = storage.kv;
    this.seq = new RoomSeq(this.kv, db);
    this.ids = new MessageIds(this.kv, db);
    this.log = new MessageLog(storage.sql);
    const keys = new KeptKeys(storage.sql, this.kv);
    const countBatch = (messages: number) => {
      this.count("d1_batches", 1);
      this.count("d1_messages", messages);
    };
    this.replicator = new Replicator(
      this.log,
      db,
      handoff,
      this.ids,
      this.seq,
      arm,
      writer,
      setAside,
    );
    const committedOnce = (row: ConversationRow, views: Presented[], counters: Counters) =>
      this.committed?.(row, views, counters);
    this.inRoom = new RoomCommit(
      storage,
      this.log,
      keys,
      db,
      this.ids,
      this.replicator,
      this.seq,
      conversation,
      written,
      committedOnce,
      () => this.count("d1_reads", 1),
    );
    this.direct = new DirectCommit(
      db,
      this.ids,
      this.seq,
      keys,
      this.replicator,
      handoff,
      conversation,
      written,
      committedOnce,
      () => this.inRoom.drop(),
      countBatch,
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

  /** What the log holds (D1 does not have it yet), in seq order: reads merge it (tail.ts). */
  logged(): LogEntry[] {
    return this.log.oldest(Number.MAX_SAFE_INTEGER);
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
   * Stores `req` in `place` (taken when its frame arrived), else at the end of the order. An
   * idempotency key already stored answers its message, `duplicate: true`; a retry racing its
   * original in flight gets the same row. Without a place, the answer waits for D1 unless
   * `durable` is false (then it comes at the room's commit, as a socket's ack does).
   */
  async append(req: AppendRequest, place?: Place, durable = true): Promise<AppendResult> {
    const write = () => (place ?? this.reserve(durable)).fill(req);
    const key = req.values.idempotencyKey;
    if (!key) {
      return write();
    }
    const pending = this.inflight.get(key);
    if (pending) {
      // The original relays the events; the replay only learns the row.
      return { ...(await pending), duplicate: true };
    }
    const work = write();
    this.inflight.set(key, work);
    try {
      return await work;
    } finally {
      this.inflight.delete(key);
    }
  }

  /** Takes the next place in the order now, for a message still being checked (write-queue.ts). */
  reserve(durable = false): Place {
    return this.order.reserve(durable);
  }

  /** One bad message must not fail its neighbours: a failed group is sorted out here. */
  private async commitGroup(group: Pending[]): Promise<void> {
    if (group.length === 0) {
      return;
    }
    try {
      await this.commit(group);
    } catch (err) {
      const again = await repairGroup(err, group, this.seq, this.ids, this.db);
      if (again) {
        this.order.putBack(again as Pending[]);
      } else if (group.length > 1) {
        for (const item of group) {
          await this.commitGroup([item]);
        }
      } else {
        (group[0] as Pending).reject(err);
      }
    }
  }

  private async commit(group: Pending[]): Promise<void> {
    await this.seq.ensure((group[0] as Pending).req.conversationId);
    if (group.some((p) => (p.req.attachments ?? []).length > 0)) {
      // Files are recorded with ids only D1 gives: this group goes straight to D1, after the log.
      await this.direct.commit(group);
      return;
    }
    await this.inRoom.commit(group);
  }

  /**
   * The room's own D1 transactions (messages with files; the log's are the account writer's),
   * the messages they stored and the reads before a commit, kept in its own storage: what
   * `npm run bench -- realtime` reports per 1,000 messages.
   */
  private count(key: "d1_batches" | "d1_messages" | "d1_reads", n: number): void {
    this.kv.put(key, (this.kv.get<number>(key) ?? 0) + n);
  }
}
