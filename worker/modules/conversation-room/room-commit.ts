import type { Db } from "../../db/client";
import type { AttachmentRow, ConversationRow, MessageRow } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import type { Counters, MessageTouch } from "../messages/queries";
import type { RoomConversationCache } from "./conversation-cache";
import type { MessageIds } from "./message-ids";
import { type CheckNeeds, type CheckResult, checkInD1 } from "./queries.check";
import {
  KEY_RETENTION_S,
  type KeptKeys,
  keysOf,
  type LogEntry,
  type LoggedRequest,
  localRow,
  type MessageLog,
} from "./queries.wal";
import type { Replicator } from "./replicator";
import type { AppendRequest, Presented, Ready } from "./types";

/** How long an HTTP answer waits for D1 before answering from the room's log (D1 failing). */
const DURABLE_WAIT_MS = 10_000;

type Numbered = { seq: number; createdAt: number };

/**
 * Whether the agents' read mark leaves this incoming message unread (`unseenByAgents` of
 * messages/queries.ts: by seq once a read recorded one, else by time).
 */
export const unseenBy = (mark: ConversationRow | undefined, m: Numbered) =>
  !mark ||
  (mark.agentLastSeenSeq === null
    ? m.createdAt > (mark.agentLastSeenAt ?? 0)
    : m.seq > mark.agentLastSeenSeq);

/**
 * A group committed in the room: its socket senders' access is asked of the room (no read), its
 * messages are checked against D1 in one read only when the room must (a retried key whose
 * message left the log, the keys of a room that never kept them, counters or row it does not
 * hold), numbered, logged with their keys and the seq in one storage transaction, and broadcast;
 * socket senders and agents' HTTP posts are answered then, other callers once D1 has it.
 */
export class RoomCommit {
  private counters: Counters | undefined;
  /** Bumped by drop(): counters computed from what a commit held before its reads are not kept. */
  private drops = 0;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly log: MessageLog,
    private readonly keys: KeptKeys,
    private readonly db: () => Db,
    private readonly ids: MessageIds,
    private readonly replicator: Replicator,
    private readonly seq: { next(): number; persist(): void },
    private readonly conversation: RoomConversationCache | undefined,
    private readonly written: (
      row: MessageRow,
      attachments: AttachmentRow[],
      req: AppendRequest,
      counters: Counters,
    ) => Presented,
    private readonly committed: (row: ConversationRow, views: Presented[], c: Counters) => void,
    /** Counts the group's reads of D1 before its commit (the bench and tests watch it). */
    private readonly countRead: () => void,
  ) {}

  /** The room's counters no longer hold (a read receipt, any conversation change). */
  drop(): void {
    this.counters = undefined;
    this.drops += 1;
  }

  async commit(group: Ready[]): Promise<void> {
    const since = this.conversation?.mark() ?? 0;
    const last = (group.at(-1) as Ready).req;
    const now = Math.floor(Date.now() / 1000);
    const loaded = this.keys.loaded();
    const needs: CheckNeeds = {
      conversationId: last.conversationId,
      keys: [],
      keysSince: loaded ? null : now - KEY_RETENTION_S,
      counters: null,
      conversation: null,
    };
    // The logged messages of the group's keys (retries of messages not in D1 yet), looked up
    // once: one still in the log now answers its retry even if it leaves the log meanwhile.
    const logged = new Map<string, MessageRow>();
    for (const p of group) {
      const key = p.req.values.idempotencyKey;
      const row = key ? this.log.byKey(key) : undefined;
      if (key && row) {
        logged.set(key, row);
      } else if (key && (!loaded || this.keys.has(key))) {
        // A key the room kept but no longer logs is a retry of a message D1 holds.
        needs.keys.push(key);
      }
    }
    // What the room holds now: a drop during the reads below (a conversation event passing the
    // room) must neither leave this commit without counters nor be undone by it.
    const held = this.counters;
    const drops = this.drops;
    if (!held) {
      needs.counters = last.counters;
    }
    const cached = this.conversation?.peek();
    if (!cached) {
      needs.conversation = last.conversationId;
    }
    // A warm room holds all of it: its commit reads nothing.
    let checked: CheckResult = { stored: new Map() };
    if (needs.keys.length > 0 || needs.keysSince !== null || needs.counters || needs.conversation) {
      this.countRead();
      checked = await checkInD1(this.db(), needs);
    }
    const ids = await this.ids.take(group.length);
    // Synchronous from here to the broadcast: the group's place in the order is now.
    if (checked.keys) {
      this.keys.load(checked.keys, now);
    }
    const fresh: Ready[] = [];
    for (const p of group) {
      if (p.req.allowed && !p.req.allowed(this.conversation?.peek())) {
        p.reject(new ApiError("not_found"));
        continue;
      }
      const key = p.req.values.idempotencyKey;
      // Concurrent sends of one key meet in the room's in-flight map before they get here.
      const prior = key ? (logged.get(key) ?? checked.stored.get(key)) : null;
      const inLog = prior && p.durable && key ? this.log.byKey(key) : undefined;
      if (inLog) {
        // A retry of a message only the log holds yet: answered once D1 has it, as the first
        // post is, so that a read after the answer sees it.
        this.replicator
          .replicated(inLog.id, DURABLE_WAIT_MS)
          .then(
            (stored) => p.resolve({ message: stored?.row ?? inLog, duplicate: true }),
            p.reject,
          );
        continue;
      }
      if (prior) {
        p.resolve({ message: prior, duplicate: true });
        continue;
      }
      fresh.push(p);
    }
    if (fresh.length === 0) {
      return;
    }
    const entries: LogEntry[] = fresh.map((p, i) => {
      p.seq = this.seq.next();
      p.id = ids[i] as number;
      const { allowed: _allowed, ...req } = p.req;
      return { id: p.id, seq: p.seq, req: req as LoggedRequest, row: localRow(p.req, p.id, p.seq) };
    });
    try {
      this.storage.transactionSync(() => {
        this.log.append(entries);
        this.keys.add(keysOf(entries));
        this.keys.trim(now);
        this.seq.persist();
      });
    } catch (err) {
      // Rolled back: the log's copy in memory may hold what storage does not.
      this.log.forget();
      throw err;
    }
    const counters = this.countersAfter(
      checked.counters ?? (held as Counters),
      checked.counters === undefined,
      cached ?? checked.conversation,
      entries,
    );
    if (this.drops === drops) {
      this.counters = counters;
    }
    let row =
      cached ??
      (checked.conversation ? this.withLoggedTouches(checked.conversation, entries) : undefined);
    const views: Presented[] = [];
    fresh.forEach((p, i) => {
      const entry = entries[i] as LogEntry;
      if (row) {
        row = applyTouch(row, p.req.touch);
      }
      const view = this.written(entry.row, [], p.req, counters);
      views.push(view);
      const answer = (message: MessageRow, duplicate = false) =>
        p.resolve(
          message.id === entry.id && message.seq === entry.seq
            ? { message, duplicate, ...view }
            : // Renumbered after rows imported into D1 behind the room: presented afresh.
              { message, duplicate },
        );
      if (!p.durable) {
        answer(entry.row);
        return;
      }
      // Past the wait (D1 refusing it), answered from the log: the message will reach D1.
      this.replicator
        .replicated(entry.id, DURABLE_WAIT_MS)
        .then((stored) => answer(stored?.row ?? entry.row, stored?.duplicate), p.reject);
    });
    if (row) {
      this.conversation?.wrote(row, since);
      this.committed(row, views, counters);
    }
    this.replicator.kick();
  }

  /**
   * D1's counters when read now (`base`, `held` false), plus the log's incoming messages the
   * agents have not seen (this group's among them); else the counters held, moved by the group.
   * Dropped by every conversation change passing the room (a read among them), so the read mark
   * is current.
   */
  private countersAfter(
    base: Counters,
    held: boolean,
    mark: ConversationRow | undefined,
    entries: LogEntry[],
  ): Counters {
    if (!held) {
      const inLog = this.log.incoming().filter((m) => unseenBy(mark, m)).length;
      return { ...base, unread: base.unread + inLog };
    }
    const added = entries.filter((e) => e.row.messageType === 0 && unseenBy(mark, e.row));
    return { ...base, unread: base.unread + added.length };
  }

  /** A row read from D1 lacks the clocks of messages still in the log (but this group's). */
  private withLoggedTouches(row: ConversationRow, group: LogEntry[]): ConversationRow {
    const mine = new Set(group.map((e) => e.id));
    return this.log
      .oldest(Number.MAX_SAFE_INTEGER)
      .filter((e) => !mine.has(e.id))
      .reduce((r, e) => applyTouch(r, e.req.touch), row);
  }
}

/** The conversation's clocks as `touchConversation` moves them in D1 (the same rules). */
export function applyTouch(row: ConversationRow, touch: MessageTouch): ConversationRow {
  const at = touch.at;
  const next = { ...row, updatedAt: at };
  if (touch.kind === "incoming") {
    next.lastActivityAt = at;
    next.waitingSince = row.waitingSince ?? at;
  } else if (touch.kind === "human_reply") {
    next.lastActivityAt = at;
    next.waitingSince = null;
    next.firstReplyCreatedAt = row.firstReplyCreatedAt ?? at;
  } else if (touch.kind === "activity") {
    next.lastActivityAt = at;
  }
  return next;
}
