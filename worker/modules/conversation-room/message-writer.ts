import type { Db } from "../../db/client";
import type { ConversationRow } from "../../db/schema";
import type { RoomRelay } from "../../realtime/room-relay";
import type { Counters } from "../messages/queries";
import type { RoomConversationCache } from "./conversation-cache";
import { DirectCommit } from "./direct-commit";
import { repairGroup } from "./group-failure";
import type { WriterStub } from "./log-writer";
import { MessageIds } from "./message-ids";
import { KeptKeys } from "./queries.keys";
import { MessageLog } from "./queries.wal";
import { Replicator, type SetAside } from "./replicator";
import { type Ready, RoomCommit } from "./room-commit";
import { RoomSeq } from "./room-seq";
import type { AppendRequest, AppendResult, Presented, Written } from "./types";

export type { AppendRequest, AppendView, MessageView, Presented } from "./types";

/** Messages committed to D1 in one batch at most; keeps a batch well under D1's limits. */
const MAX_GROUP = 40;
/** A room that committed within this long is busy: its next group gathers for GATHER_MS. */
const BUSY_MS = 50;
const GATHER_MS = 4;

/** A place in the queue: taken when a message arrives, filled once its checks pass. */
type Slot = Omit<Ready, "req"> & { req?: AppendRequest; cancelled: boolean };
type Pending = Slot & Ready;

/** A message's place in the writer's order, held while it is checked (socket messages). */
export type Place = {
  fill(req: AppendRequest): Promise<AppendResult>;
  /** Gives the place up (refused, or answered without a write); no-op once filled. */
  cancel(): void;
};

/**
 * The room's message writer. Messages queue in arrival order; those that arrive while a D1 write
 * is in flight are committed together in the next batch (group commit), so one conversation's
 * throughput is not bounded by one D1 round trip per message. A group takes its seqs when it
 * commits, synchronously and in queue order, and gives them back if the batch fails, so seqs
 * are arrival order without gaps. Groups commit strictly one after another.
 */
export class MessageWriter {
  private readonly queue: Slot[] = [];
  private draining = false;
  private lastCommit = 0;
  private readonly seq: RoomSeq;
  private readonly ids: MessageIds;
  private readonly kv: SyncKvStorage;
  private readonly log: MessageLog;
  private readonly replicator: Replicator;
  private readonly inRoom: RoomCommit;
  private readonly direct: DirectCommit;

  constructor(
    storage: DurableObjectStorage,
    private readonly db: () => Db,
    /** Runs `step` in the room's ordered chain (shared with other broadcasts). */
    private readonly enqueue: (step: () => Promise<void>) => Promise<void>,
    /** Called in seq order once a message is stored (the room broadcasts it). */
    written: Written,
    /** Sends the group's outbox rows to the queue; its sent-marks ride on the next group. */
    relay: RoomRelay,
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
      relay,
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
      relay,
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
    const none = () => {};
    const slot: Slot = { durable, cancelled: false, seq: 0, id: 0, resolve: none, reject: none };
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

  /**
   * Commits what is ready at the head now, then yields the chain to other broadcasts. A room that
   * committed a moment ago is busy: it first lets the frames arriving meanwhile join the group, so
   * a burst is one storage transaction, broadcast and feed frame per group, not per message.
   */
  private async drainOnce(): Promise<void> {
    try {
      if (Date.now() - this.lastCommit < BUSY_MS && this.queue.length < MAX_GROUP) {
        await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      }
      this.lastCommit = Date.now();
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
    } catch (err) {
      const again = await repairGroup(err, group, this.seq, this.ids, this.db);
      if (again) {
        this.queue.unshift(...(again as Pending[]));
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
