import type { ConversationRow } from "../../db/schema";

/**
 * The room's copy of its conversation row, so a message sent over a socket does not read it
 * again. Every write the room makes hands back the row as it left it; every conversation event
 * published through the room drops it (the next message reads it once more). What it holds is
 * never trusted for access: a socket message's insert re-checks access in its own batch
 * (writer's `guard`), so a stale copy can only cost a refusal, never a wrong write.
 */
export class RoomConversationCache {
  private row: ConversationRow | undefined;
  private loading: Promise<ConversationRow> | undefined;
  /** Bumped by every drop, so a read or write that began before it cannot refill the cache. */
  private generation = 0;

  /**
   * The row, or `load`'s: one read serves every message that asks while it is under way. Each
   * caller's `load` checks its own access; one that fails leaves the others to read for
   * themselves.
   */
  get(load: () => Promise<ConversationRow>): Promise<ConversationRow> {
    if (this.row) {
      return Promise.resolve(this.row);
    }
    if (this.loading) {
      return this.loading.catch(() => this.get(load));
    }
    const seen = this.generation;
    const loading = load().then((row) => {
      if (seen === this.generation) {
        this.row = row;
      }
      return row;
    });
    this.loading = loading;
    const clear = () => {
      if (this.loading === loading) {
        this.loading = undefined;
      }
    };
    loading.then(clear, clear);
    return loading;
  }

  /** The row if the room holds it, without reading. */
  peek(): ConversationRow | undefined {
    return this.row;
  }

  /** The generation a write starts in; pass it back with the row the write returned. */
  mark(): number {
    return this.generation;
  }

  /** The row as a write left it, unless a change was published since the write began. */
  wrote(row: ConversationRow, since: number): void {
    if (since === this.generation) {
      this.row = row;
    }
  }

  drop(): void {
    this.row = undefined;
    this.loading = undefined;
    this.generation += 1;
  }
}
