import type { LogEntry } from "./types";

/** An entry as the log holds it in memory: with the size of its request in UTF-8. */
export type Held = { entry: LogEntry; bytes: number };

/**
 * The room's message log as a copy in memory (queries.wal.ts keeps it equal to storage): its
 * entries in seq order, their requests' size, and the entries by idempotency key.
 */
export class LogMemory {
  entries: Held[] = [];
  bytes = 0;
  private readonly keys = new Map<string, LogEntry>();

  add(h: Held): void {
    const last = this.entries.at(-1);
    this.entries.push(h);
    if (last && last.entry.seq > h.entry.seq) {
      this.entries.sort((a, b) => a.entry.seq - b.entry.seq);
    }
    this.bytes += h.bytes;
    const key = h.entry.row.idempotencyKey;
    if (key) {
      this.keys.set(key, h.entry);
    }
  }

  byKey(key: string): LogEntry | undefined {
    return this.keys.get(key);
  }

  /** These entries left the log. */
  drop(ids: Set<number>): void {
    this.entries = this.entries.filter((h) => {
      if (!ids.has(h.entry.id)) {
        return true;
      }
      this.bytes -= h.bytes;
      const key = h.entry.row.idempotencyKey;
      if (key && this.keys.get(key)?.id === h.entry.id) {
        this.keys.delete(key);
      }
      return false;
    });
  }

  /** The entry `id` now is `moved` (renumbered); false when it is not held. */
  replace(id: number, moved: LogEntry): boolean {
    const at = this.entries.findIndex((h) => h.entry.id === id);
    const held = this.entries[at];
    if (!held) {
      return false;
    }
    held.entry = moved;
    if (moved.row.idempotencyKey) {
      this.keys.set(moved.row.idempotencyKey, moved);
    }
    this.entries.sort((a, b) => a.entry.seq - b.entry.seq);
    return true;
  }
}
