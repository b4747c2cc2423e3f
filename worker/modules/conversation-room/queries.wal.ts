import type { MessageRow } from "../../db/schema";
import { LogMemory } from "./log-memory";
import type { AppendRequest, LogEntry } from "./types";

export type { LogEntry, LoggedRequest } from "./types";

type Stored = { id: number; seq: number; req: string; row: string };

/** The log's copy in memory is given up past this many bytes of requests (D1 down for long). */
const MAX_HELD_BYTES = 16 * 1024 * 1024;

const encoder = new TextEncoder();
/** A string's length in UTF-8, as SQLite's `length(CAST(req AS BLOB))` counts it. */
const utf8 = (s: string) => {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 127) {
      return encoder.encode(s).byteLength;
    }
  }
  return s.length;
};

/**
 * The room's write-ahead log of messages, in its own SQLite storage: a message is committed here
 * (with what its outbox rows and reporting facts are made from: its request and recorder), then
 * acked, then replicated to D1 in order and deleted once D1 has it. It holds only what D1 does
 * not have yet.
 *
 * Every change goes through this class, which keeps a copy of the whole log in memory, in seq
 * order, so a replication round and a retried key read nothing back from storage nor parse what
 * the room just wrote. Storage is read into it once (a restart, or after `forget`: a storage
 * transaction that failed); a log too large to hold is read from storage until it empties.
 */
export class MessageLog {
  /** The log's copy, or undefined: read storage (not loaded yet, or too large). */
  private held: LogMemory | undefined;
  /** Whether loading the copy may succeed (false: too large, until the log shrinks). */
  private loadable = true;

  constructor(private readonly sql: SqlStorage) {
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

  /**
   * Called inside the room's storage transaction with the group's other writes; when that
   * transaction fails, the caller calls `forget` (the copy in memory holds these entries).
   */
  append(entries: LogEntry[]): void {
    const held = this.load();
    for (const e of entries) {
      const req = JSON.stringify(e.req);
      this.sql.exec(
        "INSERT INTO message_log (id, seq, idempotency_key, incoming_at, req, row) VALUES (?, ?, ?, ?, ?, ?)",
        e.id,
        e.seq,
        e.row.idempotencyKey,
        e.row.messageType === 0 ? e.row.createdAt : null,
        req,
        JSON.stringify(e.row),
      );
      held?.add({ entry: e, bytes: utf8(req) });
    }
    if (held && held.bytes > MAX_HELD_BYTES) {
      this.held = undefined;
      this.loadable = false;
    }
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
      this.load()?.entries ??
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
      this.load()?.entries.length ??
      this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM message_log").one().n
    );
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
    if (this.held && !this.held.replace(entry.id, { ...entry, id, seq, row })) {
      this.forget();
    }
  }

  /** The logged message with this idempotency key (a retry of a message not in D1 yet). */
  byKey(key: string): MessageRow | undefined {
    const held = this.load();
    if (held) {
      return held.byKey(key)?.row;
    }
    const found = this.sql
      .exec<Stored>("SELECT id, seq, req, row FROM message_log WHERE idempotency_key = ?", key)
      .toArray()[0];
    return found ? parse(found).row : undefined;
  }

  /** The logged incoming messages (unread ones D1 cannot count yet). */
  incoming(): { seq: number; createdAt: number }[] {
    const held = this.load();
    if (held) {
      return held.entries
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
  private load(): LogMemory | undefined {
    if (this.held || !this.loadable) {
      return this.held;
    }
    const total = this.sql
      .exec<{ bytes: number }>(
        "SELECT coalesce(sum(length(CAST(req AS BLOB))), 0) AS bytes FROM message_log",
      )
      .one().bytes;
    if (total > MAX_HELD_BYTES) {
      this.loadable = false;
      return undefined;
    }
    const held = new LogMemory();
    for (const r of this.sql.exec<Stored & { bytes: number }>(
      "SELECT id, seq, req, row, length(CAST(req AS BLOB)) AS bytes FROM message_log ORDER BY seq",
    )) {
      held.add({ entry: parse(r), bytes: r.bytes });
    }
    this.held = held;
    return held;
  }

  /** These entries left storage: out of memory too (and a log too large may fit now). */
  private dropped(ids: number[]): void {
    this.held?.drop(new Set(ids));
    this.loadable = true;
  }
}

function parse(s: Stored): LogEntry {
  return { id: s.id, seq: s.seq, req: JSON.parse(s.req), row: JSON.parse(s.row) };
}

/** The row D1 will hold for this message: the insert's values and the columns' defaults. */
export function localRow(req: AppendRequest, id: number, seq: number): MessageRow {
  const v = req.values;
  return {
    id,
    accountId: v.accountId,
    inboxId: v.inboxId,
    conversationId: req.conversationId,
    seq,
    content: v.content ?? null,
    messageType: v.messageType,
    contentType: v.contentType ?? "text",
    contentAttributes: v.contentAttributes ?? {},
    private: v.private ?? false,
    status: v.status ?? "sent",
    sourceId: v.sourceId ?? null,
    senderType: v.senderType ?? null,
    senderId: v.senderId ?? null,
    externalSourceIds: v.externalSourceIds ?? {},
    additionalAttributes: v.additionalAttributes ?? {},
    sentiment: v.sentiment ?? {},
    echoId: v.echoId ?? null,
    idempotencyKey: v.idempotencyKey ?? null,
    createdAt: v.createdAt ?? 0,
    updatedAt: v.updatedAt ?? v.createdAt ?? 0,
  };
}
