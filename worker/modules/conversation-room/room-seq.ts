import type { Db } from "../../db/client";
import { maxSeq } from "../messages/queries";

/**
 * The conversation's last `seq` as the room handed it out, kept in the room's storage. A room
 * that never wrote (or lost its storage) continues after what D1 already holds.
 */
export class RoomSeq {
  private last = 0;
  private ready: Promise<void> | undefined;

  constructor(
    private readonly kv: SyncKvStorage,
    private readonly db: () => Db,
  ) {}

  /** Before the first group: the stored seq, or D1's. */
  ensure(conversationId: number): Promise<void> {
    this.ready ??= (async () => {
      const stored = this.kv.get<number>("last_seq");
      this.last = stored ?? (await maxSeq(this.db(), conversationId));
    })().catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  get current(): number {
    return this.last;
  }

  /** The next seq (persisted with the commit that uses it: `persist`). */
  next(): number {
    this.last += 1;
    return this.last;
  }

  persist(): void {
    this.kv.put("last_seq", this.last);
  }

  /** D1 holds seqs up to `to` (rows imported behind the room): continue after them. */
  raise(to: number): void {
    this.last = Math.max(this.last, to);
    this.persist();
  }

  /** A group that did not commit gives its seqs back. */
  rewind(to: number): void {
    this.last = to;
    this.persist();
  }

  /** D1's highest seq of the conversation, read again (a seq clash). */
  async fromD1(conversationId: number): Promise<void> {
    this.raise(await maxSeq(this.db(), conversationId));
  }
}
