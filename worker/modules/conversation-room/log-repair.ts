import type { Db } from "../../db/client";
import type { MessageRow } from "../../db/schema";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError } from "../../lib/errors";
import type { MessageIds } from "./message-ids";
import { logSeqOf, repairReads } from "./queries.repair";
import type { LogEntry, MessageLog } from "./queries.wal";
/** A logged message as D1 ended up holding it (`duplicate`: an earlier one with its key). */
export type Replicated = { row: MessageRow; duplicate: boolean };
export type Waiter = { resolve: (r: Replicated) => void; reject: (err: unknown) => void };

/**
 * D1's row is this logged message (not another row that took its id), for a conversation whose
 * `log_seq` was never set (rows replicated before it existed): by content, which an edit, a
 * delete or a contact merge since changes. Every later replication sets `log_seq`.
 */
const sameMessage = (row: MessageRow | undefined, logged: MessageRow) =>
  row !== undefined &&
  row.conversationId === logged.conversationId &&
  row.seq === logged.seq &&
  row.createdAt === logged.createdAt &&
  row.content === logged.content &&
  row.senderId === logged.senderId &&
  row.idempotencyKey === logged.idempotencyKey;

const isForeignKey = (err: unknown) =>
  /FOREIGN KEY constraint failed/i.test(`${err} ${(err as Error)?.cause ?? ""}`);

/**
 * What the replicator does with a write D1 refused for what it already holds (replicator.ts):
 * the log's entries are taken out, renumbered or dropped so the next write goes through.
 */
export class LogRepair {
  constructor(
    private readonly log: MessageLog,
    private readonly db: () => Db,
    private readonly ids: MessageIds,
    /** The room's seq: renumbering moves it past the seqs it hands out. */
    private readonly seq: { raise(to: number): void },
    /** The callers waiting for D1 to hold a logged message, by its id. */
    private readonly waiters: Map<number, Waiter>,
    /** These entries are in D1 (some as an earlier message with their key). */
    private readonly done: (entries: LogEntry[], earlier?: Map<number, MessageRow>) => void,
  ) {}

  /**
   * Before a restarted room's first write: the entries D1 already has (at or under `log_seq`; a
   * crash came before their deletion committed) leave the log, so the write is not refused for
   * them. True: some did.
   */
  async skipWritten(entries: LogEntry[]): Promise<boolean> {
    const logSeq = await logSeqOf(this.db(), (entries[0] as LogEntry).req.conversationId);
    const written = entries.filter((e) => e.seq <= logSeq);
    if (written.length > 0) {
      this.done(written);
    }
    return written.length > 0;
  }

  /**
   * Sorts out a write D1 refused for what it holds: messages an earlier attempt wrote (their seq
   * at or under the conversation's `log_seq`, set in the same transaction as their rows, whatever
   * the rows became since: an answer lost, or a replay after a crash of entries whose trim had not
   * committed) leave the log; ids or seqs taken by rows written straight into D1 (an import) are
   * replaced, in the same order, after them; a conversation deleted meanwhile drops its log. True:
   * try again now.
   */
  async repair(entries: LogEntry[], err: unknown): Promise<boolean> {
    if (!isUniqueViolation(err) && !isForeignKey(err)) {
      return false;
    }
    const conversationId = (entries[0] as LogEntry).req.conversationId;
    const { atIds, topSeq, exists, logSeq, byKey } = await repairReads(
      this.db(),
      conversationId,
      entries.map((e) => e.id),
      entries.flatMap((e) => e.row.idempotencyKey ?? []),
    );
    if (!exists) {
      const all = this.log.oldest(Number.MAX_SAFE_INTEGER);
      this.log.remove(all.map((e) => e.id));
      for (const e of all) {
        this.waiters.get(e.id)?.reject(new ApiError("not_found"));
        this.waiters.delete(e.id);
      }
      return true;
    }
    const rows = new Map(atIds.map((r) => [r.id, r]));
    const mine = new Set(
      entries
        .filter((e) => e.seq <= logSeq || (logSeq === 0 && sameMessage(rows.get(e.id), e.row)))
        .map((e) => e.id),
    );
    // Stored by an earlier message with the same key (under another id): that one stands.
    const earlier = new Map<number, MessageRow>();
    for (const e of entries) {
      const row = byKey.find((r) => r.idempotencyKey === e.row.idempotencyKey && r.id !== e.id);
      if (row && !mine.has(e.id)) {
        earlier.set(e.id, row);
      }
    }
    if (mine.size > 0 || earlier.size > 0) {
      const ids = new Set([...mine, ...earlier.keys()]);
      this.done(
        entries.filter((e) => ids.has(e.id)),
        earlier,
      );
      return true;
    }
    const taken = new Set(rows.keys());
    const fresh = taken.size > 0 ? await this.freshIds(taken.size) : [];
    // Synchronous from here: no message is logged while the log is renumbered.
    const all = this.log.oldest(Number.MAX_SAFE_INTEGER);
    const d1Seq = topSeq;
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
