import type { Db } from "../../db/client";
import { leaseMessageIds } from "../messages/queries";

/** The room's leased block of message ids, kept in its storage so a restart wastes none. */
type Block = { next: number; end: number; size: number; leasedAt: number };

const KEY = "message_ids";
const MIN_BLOCK = 8;
const MAX_BLOCK = 1024;
/** A block used up faster than this leases a twice larger one next (a busy room). */
const BUSY_MS = 10_000;
/** A block that lasted longer than this leases a twice smaller one (a quiet room). */
const QUIET_MS = 600_000;
/**
 * The stored block's `next` runs this many ids ahead of the ids handed out, so storage is
 * written once per this many messages, not once each: a restart goes on from the stored `next`,
 * above every id handed out; the ids between are a gap, never reused.
 */
const STORE_AHEAD = 32;

/**
 * Message ids for one room, unique across the service without a D1 round trip per message: the
 * room leases a block of ids from D1 (`id_leases`, one statement) and numbers its messages from
 * it, so a message's id is known before its batch runs. Blocks are sized to the room's traffic:
 * a busy room leases rarely, a quiet one holds few ids it may never use. Ids are increasing in a
 * room; across rooms they interleave by block, and an unused remainder is a gap, never reused.
 */
export class MessageIds {
  /** The block, held in memory once read: only this class writes it. */
  private held: Block | undefined;
  /** The stored block's `next`: every id handed out lies below it. */
  private storedNext = 0;

  constructor(
    private readonly kv: SyncKvStorage,
    private readonly db: () => Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** `n` new ids, in increasing order. Leases only when the block runs out. */
  async take(n: number): Promise<number[]> {
    const ids: number[] = [];
    while (ids.length < n) {
      const block = this.block();
      if (!block || block.next >= block.end) {
        await this.lease(block, n - ids.length);
        continue;
      }
      const k = Math.min(n - ids.length, block.end - block.next);
      for (let i = 0; i < k; i++) {
        ids.push(block.next + i);
      }
      this.held = { ...block, next: block.next + k };
      if (this.held.next > this.storedNext) {
        this.store(this.held, Math.min(block.end, this.held.next + STORE_AHEAD));
      }
    }
    return ids;
  }

  private block(): Block | undefined {
    if (!this.held) {
      this.held = this.kv.get<Block>(KEY);
      this.storedNext = this.held?.next ?? 0;
    }
    return this.held;
  }

  /** Keeps `block`, stored with `next` at `storedNext` (ahead of the ids handed out). */
  private store(block: Block, storedNext = block.next): void {
    this.held = block;
    this.kv.put(KEY, { ...block, next: storedNext });
    this.storedNext = storedNext;
  }

  /**
   * An id of the block was already taken in D1 (a row written there behind the room's back):
   * the rest of the block is given up, and the next lease starts above every stored id.
   */
  discard(): void {
    const block = this.block();
    if (block) {
      this.store({ ...block, next: block.end });
    }
  }

  private async lease(previous: Block | undefined, needed: number): Promise<void> {
    const at = this.now();
    let size = previous?.size ?? MIN_BLOCK;
    if (previous && at - previous.leasedAt < BUSY_MS) {
      size *= 2;
    } else if (previous && at - previous.leasedAt > QUIET_MS) {
      size /= 2;
    }
    size = Math.max(needed, Math.min(MAX_BLOCK, Math.max(MIN_BLOCK, size)));
    const { first, end } = await leaseMessageIds(this.db(), size);
    this.store({ next: first, end, size, leasedAt: at });
  }
}
