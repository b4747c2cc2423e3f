import type { LogEntry } from "./types";

type Stored = { id: number; seq: number; req: string; row: string };

/** An entry as the log holds it in memory: with the size of its request in UTF-8. */
export type Held = { entry: LogEntry; bytes: number };

/** The log's copy in memory is given up past this many bytes of requests (D1 down for long). */
export const MAX_HELD_BYTES = 16 * 1024 * 1024;

/**
 * The room's message log as the replicator reads and trims it (queries.wal.ts appends to it): in
 * its own SQLite storage, and as a copy in memory, in seq order, equal to the table through every
 * change, so a replication round reads nothing back from storage nor parses what the room just
 * wrote. The table is read into it once (a restart, or after `forget`: a storage transaction that
 * failed); a log too large to hold is read from storage until it shrinks.
 */
export abstract class StoredLog {
  /** The log's copy, or undefined: read storage (not loaded yet, or too large). */
  protected held: Held[] | undefined;
  protected heldBytes = 0;
  /** The held entries by idempotency key. */
  protected readonly keyed = new Map<string, LogEntry>();
  /** Whether loading the copy may succeed (false: too large, until the log shrinks). */
  protected loadable = true;
  /**
   * Entries D1 has that are out of the copy but still in storage: deleted with the next append's
   * transaction, or by `trim` when the room is idle, not in a commit (a disk sync) of their own.
   */
  private untrimmed = new Set<number>();

  constructor(protected readonly sql: SqlStorage) {
    sql.exec(
      `CREATE TABLE IF NOT EXISTS message_log (
         id INTEGER PRIMARY KEY,
         seq INTEGER NOT NULL,
         idempotency_key TEXT,
         incoming_at INTEGER,
         req TEXT NOT NULL,
         row TEXT NOT NULL
       )`,
    );
    sql.exec(
      `CREATE TABLE IF NOT EXISTS message_set_aside (
         id INTEGER PRIMARY KEY,
         seq INTEGER NOT NULL,
         req TEXT NOT NULL,
         row TEXT NOT NULL,
         reason TEXT NOT NULL,
         at INTEGER NOT NULL
       )`,
    );
  }

  /**
   * A message D1 keeps refusing leaves the log for this record (replicator.ts), with D1's
   * reason: kept in the room's storage for whoever investigates; never retried.
   */
  setAside(entry: LogEntry, reason: string): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO message_set_aside (id, seq, req, row, reason, at) VALUES (?, ?, ?, ?, ?, ?)",
      entry.id,
      entry.seq,
      JSON.stringify(entry.req),
      JSON.stringify(entry.row),
      reason,
      Date.now(),
    );
    this.sql.exec("DELETE FROM message_log WHERE id = ?", entry.id);
    this.dropped([entry.id]);
  }

  /** The copy in memory may differ from storage (a failed transaction): read storage again. */
  forget(): void {
    this.held = undefined;
    this.loadable = true;
  }

  /**
   * The oldest `limit` entries, in seq order, and no more than `maxBytes` of requests (counted
   * in UTF-8): one at least, however large.
   */
  oldest(limit: number, maxBytes = Number.POSITIVE_INFINITY): LogEntry[] {
    const out: LogEntry[] = [];
    let bytes = 0;
    const rows: Iterable<{ entry?: LogEntry; bytes: number } & Partial<Stored>> =
      this.load() ??
      this.sql.exec<Stored & { bytes: number }>(
        "SELECT id, seq, req, row, length(CAST(req AS BLOB)) AS bytes FROM message_log ORDER BY seq LIMIT ?",
        limit,
      );
    for (const r of rows) {
      bytes += r.bytes;
      if (out.length >= limit || (out.length > 0 && bytes > maxBytes)) {
        break;
      }
      out.push(r.entry ?? parse(r as Stored));
    }
    return out;
  }

  size(): number {
    return (
      this.load()?.length ??
      this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM message_log").one().n
    );
  }

  /**
   * D1 has these entries: out of the copy now, out of storage with the next append (or `trim`).
   * A crash before that leaves them in storage: the replay finds them in D1 by the conversation's
   * `log_seq` (log-repair.ts). Without a copy (a log too large to hold) they go now.
   */
  replicated(ids: number[]): void {
    if (!this.held) {
      this.remove(ids);
      return;
    }
    for (const id of ids) {
      this.untrimmed.add(id);
    }
    this.dropped(ids);
  }

  /** Whether entries D1 has are still in storage (`trim` deletes them). */
  trimPending(): boolean {
    return this.untrimmed.size > 0;
  }

  /** Deletes the entries D1 has from storage (inside the caller's transaction, or alone). */
  trim(): void {
    if (this.untrimmed.size > 0) {
      const ids = [...this.untrimmed];
      this.untrimmed.clear();
      this.remove(ids);
    }
  }

  /** One statement, however many (one id: without the JSON). */
  remove(ids: number[]): void {
    if (ids.length === 0) {
      return;
    }
    if (ids.length === 1) {
      this.sql.exec("DELETE FROM message_log WHERE id = ?", ids[0]);
    } else {
      this.sql.exec(
        "DELETE FROM message_log WHERE id IN (SELECT value FROM json_each(?))",
        JSON.stringify(ids),
      );
    }
    this.dropped(ids);
  }

  /** A new id and seq for an entry (D1 held its id or seq already: rows imported behind it). */
  renumber(entry: LogEntry, id: number, seq: number): void {
    const row = { ...entry.row, id, seq };
    this.sql.exec(
      "UPDATE message_log SET id = ?, seq = ?, row = ? WHERE id = ?",
      id,
      seq,
      JSON.stringify(row),
      entry.id,
    );
    const held = this.held?.find((h) => h.entry.id === entry.id);
    if (!held || !this.held) {
      this.forget();
      return;
    }
    held.entry = { ...held.entry, id, seq, row };
    if (row.idempotencyKey) {
      this.keyed.set(row.idempotencyKey, held.entry);
    }
    this.held.sort((a, b) => a.entry.seq - b.entry.seq);
  }

  /** The logged incoming messages (unread ones D1 cannot count yet). */
  incoming(): { seq: number; createdAt: number }[] {
    const held = this.load();
    if (held) {
      return held
        .filter((h) => h.entry.row.messageType === 0)
        .map((h) => ({ seq: h.entry.seq, createdAt: h.entry.row.createdAt }));
    }
    return this.sql
      .exec<{ seq: number; createdAt: number }>(
        "SELECT seq, incoming_at AS createdAt FROM message_log WHERE incoming_at IS NOT NULL",
      )
      .toArray();
  }

  /** The copy in memory, read from storage when there is none and the log is small enough. */
  protected load(): Held[] | undefined {
    if (this.held || !this.loadable) {
      return this.held;
    }
    // What storage holds is read again (a failed transaction): without what D1 has.
    this.trim();
    const total = this.sql
      .exec<{ bytes: number }>(
        "SELECT coalesce(sum(length(CAST(req AS BLOB))), 0) AS bytes FROM message_log",
      )
      .one().bytes;
    if (total > MAX_HELD_BYTES) {
      this.loadable = false;
      return undefined;
    }
    this.held = [];
    this.heldBytes = 0;
    this.keyed.clear();
    for (const r of this.sql.exec<Stored & { bytes: number }>(
      "SELECT id, seq, req, row, length(CAST(req AS BLOB)) AS bytes FROM message_log ORDER BY seq",
    )) {
      this.hold({ entry: parse(r), bytes: r.bytes });
    }
    return this.held;
  }

  /** Adds an entry to the copy (queries.wal.ts: where the commit appends it). */
  protected abstract hold(h: Held): void;

  /** These entries left storage: out of memory too (and a log too large may fit now). */
  private dropped(ids: number[]): void {
    this.loadable = true;
    if (!this.held) {
      return;
    }
    const gone = new Set(ids);
    this.held = this.held.filter((h) => {
      if (!gone.has(h.entry.id)) {
        return true;
      }
      this.heldBytes -= h.bytes;
      const key = h.entry.row.idempotencyKey;
      if (key && this.keyed.get(key)?.id === h.entry.id) {
        this.keyed.delete(key);
      }
      return false;
    });
  }
}

function parse(s: Stored): LogEntry {
  return { id: s.id, seq: s.seq, req: JSON.parse(s.req), row: JSON.parse(s.row) };
}
