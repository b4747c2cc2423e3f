import type { MessageRow } from "../../db/schema";
import type { AppendRequest } from "./types";

/** What an entry keeps of its append: everything but the access check (asked before it commits). */
export type LoggedRequest = Omit<AppendRequest, "allowed">;

/** A message committed in the room and not in D1 yet. */
export type LogEntry = { id: number; seq: number; req: LoggedRequest; row: MessageRow };

type Stored = { id: number; seq: number; req: string; row: string };

/**
 * The room's write-ahead log of messages, in its own SQLite storage: a message is committed here
 * (with what its outbox rows and reporting facts are made from: its request and recorder), then
 * acked, then replicated to D1 in order and deleted once D1 has it. It holds only what D1 does
 * not have yet.
 */
export class MessageLog {
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
  }

  /** Called inside the room's storage transaction with the group's other writes. */
  append(entries: LogEntry[]): void {
    for (const e of entries) {
      this.sql.exec(
        "INSERT INTO message_log (id, seq, idempotency_key, incoming_at, req, row) VALUES (?, ?, ?, ?, ?, ?)",
        e.id,
        e.seq,
        e.row.idempotencyKey,
        e.row.messageType === 0 ? e.row.createdAt : null,
        JSON.stringify(e.req),
        JSON.stringify(e.row),
      );
    }
  }

  /**
   * The oldest `limit` entries, in seq order, and no more than `maxBytes` of requests (counted
   * in UTF-8): one at least, however large.
   */
  oldest(limit: number, maxBytes = Number.POSITIVE_INFINITY): LogEntry[] {
    const out: LogEntry[] = [];
    let bytes = 0;
    const rows = this.sql.exec<Stored & { bytes: number }>(
      "SELECT id, seq, req, row, length(CAST(req AS BLOB)) AS bytes FROM message_log ORDER BY seq LIMIT ?",
      limit,
    );
    for (const r of rows) {
      bytes += r.bytes;
      if (out.length > 0 && bytes > maxBytes) {
        break;
      }
      out.push(parse(r));
    }
    return out;
  }

  size(): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM message_log").one().n;
  }

  remove(ids: number[]): void {
    for (const id of ids) {
      this.sql.exec("DELETE FROM message_log WHERE id = ?", id);
    }
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
  }

  /** The logged message with this idempotency key (a retry of a message not in D1 yet). */
  byKey(key: string): MessageRow | undefined {
    const found = this.sql
      .exec<Stored>("SELECT id, seq, req, row FROM message_log WHERE idempotency_key = ?", key)
      .toArray()[0];
    return found ? parse(found).row : undefined;
  }

  /** The logged incoming messages (unread ones D1 cannot count yet). */
  incoming(): { seq: number; createdAt: number }[] {
    return this.sql
      .exec<{ seq: number; createdAt: number }>(
        "SELECT seq, incoming_at AS createdAt FROM message_log WHERE incoming_at IS NOT NULL",
      )
      .toArray();
  }
}

function parse(s: Stored): LogEntry {
  return { id: s.id, seq: s.seq, req: JSON.parse(s.req), row: JSON.parse(s.row) };
}
