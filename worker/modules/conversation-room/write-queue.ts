import type { AppendRequest, AppendResult, Ready } from "./types";

/** Messages committed in one group at most; keeps a D1 batch well under D1's limits. */
const MAX_GROUP = 40;
/** A room that committed within this long is busy: its next group gathers for GATHER_MS. */
const BUSY_MS = 50;
const GATHER_MS = 4;

/** A place in the queue: taken when a message arrives, filled once its checks pass. */
type Slot = Omit<Ready, "req"> & { req?: AppendRequest; cancelled: boolean };
export type Pending = Slot & Ready;

/** A message's place in the writer's order, held while it is checked (socket messages). */
export type Place = {
  fill(req: AppendRequest): Promise<AppendResult>;
  /** Gives the place up (refused, or answered without a write); no-op once filled. */
  cancel(): void;
};

/**
 * The room writer's order: messages take their place as they arrive and are committed in that
 * order, group by group (up to MAX_GROUP), one group at a time in the room's ordered chain.
 */
export class WriteQueue {
  private readonly queue: Slot[] = [];
  private draining = false;
  private lastCommit = 0;
  /** Ends a gathering wait early: every place in reach is filled (or given up). */
  private gathered: (() => void) | undefined;

  constructor(
    /** Runs `step` in the room's ordered chain (shared with other broadcasts). */
    private readonly enqueue: (step: () => Promise<void>) => Promise<void>,
    /** Commits a group (never rejects: its failures are sorted out there). */
    private readonly commitGroup: (group: Pending[]) => Promise<void>,
  ) {}

  /**
   * Takes the next place in the order now, for a message that is still being checked: messages
   * are stored in the order they arrived even when their checks finish out of order (a socket's
   * own messages stay in the order it sent them). Later messages wait behind an unfilled place.
   */
  reserve(durable = false): Place {
    const none = () => {};
    const slot: Slot = { durable, cancelled: false, seq: 0, id: 0, resolve: none, reject: none };
    this.queue.push(slot);
    return {
      fill: (req) =>
        new Promise((resolve, reject) => {
          if (slot.req || slot.cancelled) {
            reject(new Error("this place in the queue was already used"));
            return;
          }
          Object.assign(slot, { req, resolve, reject });
          this.kick();
        }),
      cancel: () => {
        if (!slot.req && !slot.cancelled) {
          slot.cancelled = true;
          this.kick();
        }
      },
    };
  }

  private kick(): void {
    if (this.gathered && !this.checking()) {
      this.gathered();
    }
    const head = this.queue[0];
    if (this.draining || !head || (!head.req && !head.cancelled)) {
      return;
    }
    this.draining = true;
    void this.enqueue(() => this.drainOnce());
  }

  /**
   * Commits what is ready at the head now, then yields the chain to other broadcasts. A room that
   * committed a moment ago is busy: it first lets the frames arriving meanwhile join the group, so
   * a burst is one storage transaction, broadcast and feed frame per group, not per message.
   */
  private async drainOnce(): Promise<void> {
    try {
      if (Date.now() - this.lastCommit < BUSY_MS && this.queue.length < MAX_GROUP) {
        await this.gather();
      }
      this.lastCommit = Date.now();
      await this.commitGroup(this.take());
    } finally {
      this.draining = false;
      this.kick();
    }
  }

  /**
   * Lets the frames that already reached the room take their places (one turn of the event
   * loop), then waits up to GATHER_MS while places in reach are still being checked, no longer:
   * a lone message (nothing else arrived or being checked) is not held back.
   */
  private async gather(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (!this.checking()) {
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.gathered?.(), GATHER_MS);
      this.gathered = () => {
        clearTimeout(timer);
        this.gathered = undefined;
        resolve();
      };
    });
  }

  /** Whether a place the next group could reach is still being checked. */
  private checking(): boolean {
    const reach = Math.min(this.queue.length, MAX_GROUP);
    for (let i = 0; i < reach; i++) {
      const slot = this.queue[i] as Slot;
      if (!slot.req && !slot.cancelled) {
        return true;
      }
    }
    return false;
  }

  /** The filled places at the head of the queue, up to the first one still being checked. */
  private take(): Pending[] {
    const group: Pending[] = [];
    while (group.length < MAX_GROUP) {
      const head = this.queue[0];
      if (!head || (!head.req && !head.cancelled)) {
        break;
      }
      this.queue.shift();
      if (head.req) {
        group.push(head as Pending);
      }
    }
    return group;
  }

  /** A group to commit again first, in the same order (after a repair). */
  putBack(group: Pending[]): void {
    this.queue.unshift(...group);
  }
}
