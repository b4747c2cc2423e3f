import type { Db } from "../../db/client";
import type { AttachmentRow, MessageRow } from "../../db/schema";
import { eventWrites, type Recorder } from "../../events/commit";
import { SYSTEM } from "../../events/deps";
import { prepareDerived } from "../../events/registry";
import type { AnyDomainEvent } from "../../events/types";
import { isUniqueViolation } from "../../lib/db-errors";
import type { RoomRelay } from "../../realtime/room-relay";
import type { MessageConversationContext } from "./presenter";
import {
  type CounterInput,
  type Counters,
  counterStatements,
  countersFrom,
  insertAttachment,
  insertMessage,
  type MessageTouch,
  maxSeq,
  messageIdAt,
  type NewAttachment,
  type NewMessage,
  touchContact,
  touchConversation,
} from "./queries";
import type { Message, PublicMessage, Sender } from "./schema";

/** What the room needs to show a message to agents and to the contact. */
export type MessageView = {
  sender: Sender | null;
  context: MessageConversationContext;
  origin: string;
};

/** A new message's view: the room reads the counters with the write itself. */
export type AppendView = Omit<MessageView, "context"> & {
  context: Omit<MessageConversationContext, "unreadCount" | "sourceId">;
};

export type AppendRequest = {
  conversationId: number;
  values: Omit<NewMessage, "seq" | "conversationId">;
  touch: MessageTouch;
  /** The contact whose last_activity_at moves (incoming messages). */
  contactId?: number;
  /** Files already stored in R2, recorded in the same batch as the message. */
  attachments?: Omit<NewAttachment, "messageId">[];
  view: AppendView;
  /** The conversation's counters to read back with the write (for the presenter). */
  counters: CounterInput;
  /** Records message.created in the message's batch; null for messages with no event. */
  record: Recorder | null;
};

const NO_RECORDER: Recorder = { performedBy: SYSTEM, origin: "", at: 0 };

function createdEvent(
  req: AppendRequest,
  messageId: ReturnType<typeof messageIdAt>,
): AnyDomainEvent {
  return {
    name: "message.created",
    accountId: req.values.accountId,
    conversation: req.conversationId,
    data: { inbox_id: req.values.inboxId, is_private: req.values.private ?? false },
    refs: { message_id: messageId },
  };
}

/** Messages committed to D1 in one batch at most; keeps a batch well under D1's limits. */
const MAX_GROUP = 40;

/** The room's views of a stored message: the agents' and the contact's (null: private). */
export type Presented = { presented: Message; presentedPublic: PublicMessage | null };

export type Written = Presented & { message: MessageRow; eventIds: number[] };

type Pending = {
  req: AppendRequest;
  seq: number;
  resolve: (written: Written) => void;
  reject: (err: unknown) => void;
};

const isSeqClash = (err: unknown) =>
  isUniqueViolation(err) && /messages\.seq/.test(`${err} ${(err as Error).cause ?? ""}`);

/**
 * The room's message writer. `seq` is taken synchronously when a message arrives; messages
 * that arrive while a D1 write is in flight are committed together in the next batch (group
 * commit), so one conversation's throughput is not bounded by one D1 round trip per message.
 * Groups commit strictly one after another, so D1 and the broadcasts see seq order.
 */
export class MessageWriter {
  private lastSeq = 0;
  private ready: Promise<void> | undefined;
  private readonly queue: Pending[] = [];
  private draining = false;

  constructor(
    private readonly kv: SyncKvStorage,
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
  ) {}

  async append(req: AppendRequest): Promise<Written> {
    await this.ensureSeq(req.conversationId);
    return new Promise((resolve, reject) => {
      const seq = this.next();
      this.queue.push({ req, seq, resolve, reject });
      this.kick();
    });
  }

  private next(): number {
    this.lastSeq += 1;
    this.kv.put("last_seq", this.lastSeq);
    return this.lastSeq;
  }

  private kick(): void {
    if (this.draining) {
      return;
    }
    this.draining = true;
    void this.enqueue(() => this.drainOnce());
  }

  /** Commits what is queued now, then yields the chain to other broadcasts before going on. */
  private async drainOnce(): Promise<void> {
    const group = this.queue.splice(0, MAX_GROUP);
    try {
      await this.commit(group);
    } catch (err) {
      if (isSeqClash(err)) {
        await this.renumber(group);
        this.queue.unshift(...group);
      } else if (group.length > 1) {
        // One bad message must not fail its neighbours: try them one by one.
        await this.commitEach(group);
      } else {
        group[0]?.reject(err);
      }
    }
    this.draining = false;
    if (this.queue.length > 0) {
      this.kick();
    }
  }

  private async commitEach(group: Pending[]): Promise<void> {
    for (const item of group) {
      try {
        await this.commit([item]);
      } catch (err) {
        item.reject(err);
      }
    }
  }

  private async commit(group: Pending[]): Promise<void> {
    if (group.length === 0) {
      return;
    }
    const db = this.db();
    const statements = [];
    const spans: { start: number; files: number; eventIds: (results: unknown[]) => number[] }[] =
      [];
    // message_created commits with the message itself (activity messages have no event).
    const events = group.map(({ req, seq }) =>
      req.record ? [createdEvent(req, messageIdAt(req.conversationId, seq))] : [],
    );
    await prepareDerived(db, events.flat(), group[0]?.req.record?.at ?? 0);
    group.forEach(({ req, seq }, n) => {
      const files = req.attachments ?? [];
      const messageId = messageIdAt(req.conversationId, seq);
      const start = statements.length;
      statements.push(
        insertMessage(db, { ...req.values, conversationId: req.conversationId, seq }),
      );
      const writes = eventWrites(db, events[n] ?? [], req.record ?? NO_RECORDER);
      const eventsAt = statements.length;
      // Before the touch: the facts derived from the message (reply time, first response) read
      // the conversation's clocks as the message found them.
      statements.push(...writes.statements);
      statements.push(
        touchConversation(db, req.conversationId, req.touch),
        ...(req.contactId ? [touchContact(db, req.contactId, req.touch.at)] : []),
      );
      statements.push(...files.map((a) => insertAttachment(db, { ...a, messageId })));
      spans.push({ start, files: files.length, eventIds: (r) => writes.ids(r, eventsAt) });
    });
    // The presenter's unread count and source_id, read after the group in the same round trip.
    const countersAt = statements.length;
    statements.push(...counterStatements(db, (group.at(-1) as Pending).req.counters));
    const marks = this.relay.take();
    if (marks) {
      statements.push(marks.statement);
    }
    let results: unknown[][];
    try {
      results = (await db.batch(statements as never)) as unknown[][];
    } catch (err) {
      if (marks) {
        this.relay.giveBack(marks.ids);
      }
      throw err;
    }
    const counters = countersFrom(results.slice(countersAt, countersAt + 2));
    this.relay.send(spans.flatMap((span) => span.eventIds(results)));
    group.forEach((p, i) => {
      const span = spans[i] as (typeof spans)[number];
      const row = results[span.start]?.[0] as MessageRow | undefined;
      const end = (spans[i + 1]?.start ?? countersAt) as number;
      const attachments = results.slice(end - span.files, end).flat() as AttachmentRow[];
      if (!row) {
        p.reject(new Error(`message ${p.seq} was not stored`));
        return;
      }
      const views = this.written(row, span.files === 0 ? [] : attachments, p.req, counters);
      p.resolve({ message: row, ...views, eventIds: span.eventIds(results) });
    });
  }

  /** D1 holds seqs the room did not write (an import): continue after them, in the same order. */
  private async renumber(group: Pending[]): Promise<void> {
    const first = group[0];
    if (!first) {
      return;
    }
    const stored = await maxSeq(this.db(), first.req.conversationId);
    this.lastSeq = Math.max(this.lastSeq, stored);
    for (const p of [...group, ...this.queue]) {
      p.seq = this.next();
    }
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
