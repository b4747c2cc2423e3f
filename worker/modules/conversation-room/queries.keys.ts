import type { MessageRow } from "../../db/schema";

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
