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

/** How long the room remembers an idempotency key it logged: retries come within minutes. */
export const KEY_RETENTION_S = 7 * 24 * 3600;

/** Kept keys are trimmed at most this often (seconds). */
const TRIM_EVERY_S = 3600;

/**
 * Every idempotency key (`echo:` ids and `Idempotency-Key`s) the room logged in the last
 * KEY_RETENTION_S, in its own SQLite storage, so a new message's key is known new without asking
 * D1: the room is the only writer of its conversation's messages. Loaded once from D1 (the keys
 * of that window) by a room that has never kept them; a key known here but no longer in the log
 * is a retry, answered from D1. A retry older than the window is still caught by D1's unique
 * index when the log is written (the stored message stands: replicator.ts).
 */
export class KeptKeys {
  /** `keys_trimmed`, held in memory once read (only this class writes it). */
  private trimmedAt: number | undefined;

  constructor(
    private readonly sql: SqlStorage,
    private readonly kv: SyncKvStorage,
  ) {
    sql.exec(
      `CREATE TABLE IF NOT EXISTS kept_keys (
         key TEXT PRIMARY KEY,
         at INTEGER NOT NULL
       )`,
    );
    sql.exec("CREATE INDEX IF NOT EXISTS kept_keys_at ON kept_keys (at)");
  }

  /** Whether the room holds every key of the window (else D1's must be loaded first). */
  loaded(): boolean {
    return this.kv.get<number>("keys_loaded") !== undefined;
  }

  /** D1's keys of the window, once; inside the caller's storage transaction or alone. */
  load(keys: { key: string; at: number }[], now: number): void {
    this.add(keys);
    this.kv.put("keys_loaded", now);
  }

  /** Called inside the room's storage transaction with the log's append. */
  add(keys: { key: string; at: number }[]): void {
    for (const k of keys) {
      this.sql.exec("INSERT OR IGNORE INTO kept_keys (key, at) VALUES (?, ?)", k.key, k.at);
    }
  }

  has(key: string): boolean {
    return this.sql.exec("SELECT 1 FROM kept_keys WHERE key = ?", key).toArray().length > 0;
  }

  /** Forgets keys older than the window (at most once an hour). */
  trim(now: number): void {
    this.trimmedAt ??= this.kv.get<number>("keys_trimmed") ?? 0;
    if (now - this.trimmedAt < TRIM_EVERY_S) {
      return;
    }
    this.sql.exec("DELETE FROM kept_keys WHERE at < ?", now - KEY_RETENTION_S);
    this.kv.put("keys_trimmed", now);
    this.trimmedAt = now;
  }
}

/** The idempotency keys of logged (or directly written) messages, for the room to keep. */
export const keysOf = (rows: { row: MessageRow }[]) =>
  rows.flatMap(({ row }) =>
    row.idempotencyKey ? [{ key: row.idempotencyKey, at: row.createdAt }] : [],
  );
