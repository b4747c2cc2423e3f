import type { MessageRow } from "../../db/schema";
import { type Held, MAX_HELD_BYTES, StoredLog } from "./queries.log";
import type { AppendRequest, LogEntry } from "./types";

export type { LogEntry, LoggedRequest } from "./types";

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
 * not have yet. This is the commit's side of it; the replicator reads and trims it through
 * queries.log.ts, which keeps the log's copy in memory.
 */
export class MessageLog extends StoredLog {
  /** Appends so far (the replicator's idle trim waits while they go on). */
  appends = 0;

  /**
   * Called inside the room's storage transaction with the group's other writes; when that
   * transaction fails, the caller calls `forget` (the copy in memory holds these entries).
   */
  append(entries: LogEntry[]): void {
    // What D1 has leaves storage in the same commit: no disk sync of its own.
    this.trim();
    this.appends += 1;
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
      if (held && this.held) {
        this.hold({ entry: e, bytes: utf8(req) });
      }
    }
  }

  /**
   * Adds an entry to the copy (in seq order), as it is appended or read back after a restart;
   * past MAX_HELD_BYTES the copy is given up.
   */
  protected override hold(h: Held): void {
    const held = this.held as Held[];
    const last = held.at(-1);
    held.push(h);
    if (last && last.entry.seq > h.entry.seq) {
      held.sort((a, b) => a.entry.seq - b.entry.seq);
    }
    this.heldBytes += h.bytes;
    const key = h.entry.row.idempotencyKey;
    if (key) {
      this.keyed.set(key, h.entry);
    }
    if (this.heldBytes > MAX_HELD_BYTES) {
      // Read from storage from now on: what D1 has must not be in it.
      this.trim();
      this.held = undefined;
      this.loadable = false;
    }
  }

  /** The logged message with this idempotency key (a retry of a message not in D1 yet). */
  byKey(key: string): MessageRow | undefined {
    if (this.load()) {
      return this.keyed.get(key)?.row;
    }
    const found = this.sql
      .exec<{ row: string }>("SELECT row FROM message_log WHERE idempotency_key = ?", key)
      .toArray()[0];
    return found ? (JSON.parse(found.row) as MessageRow) : undefined;
  }
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
  /** `keys_loaded` seen set (held from its read, not its write: a rolled-back write unsets it). */
  private loadedSeen = false;

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

  /**
   * Whether the room holds every key of the window (else D1's must be loaded first). Read until
   * seen set, which is for good (nothing unsets it), so a warm room's commit does not ask.
   */
  loaded(): boolean {
    this.loadedSeen ||= this.kv.get<number>("keys_loaded") !== undefined;
    return this.loadedSeen;
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
