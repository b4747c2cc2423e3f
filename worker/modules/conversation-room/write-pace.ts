import type { MessageLog } from "./queries.wal";

/**
 * Entries D1 has leave the room's storage with the next append's commit; when no append came for
 * this long, in a commit of their own (one disk sync for all of them, not one per write).
 */
const IDLE_TRIM_MS = 500;
/**
 * A room's writes start this long apart at least while nobody waits for one (socket messages,
 * agents' HTTP posts; a caller answered once D1 has its message, a drain or the alarm start theirs
 * at once): a conversation sending one message at a time then writes a few per D1 transaction,
 * not one each (each transaction was a disk sync on workerd's one thread). A lone message goes at
 * once.
 */
const GATHER_MS = 30;

/**
 * When the replicator's writes start and when the log's storage lets go of what D1 has: locally
 * every storage commit (the room's, D1's) is a disk sync on workerd's one thread, so both are
 * spaced to carry many messages each rather than one.
 */
export class WritePace {
  private lastStart = 0;
  private gathering: ReturnType<typeof setTimeout> | undefined;
  private trimTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly log: MessageLog) {}

  /**
   * True: a write may start now (`urgent`: someone waits for it). Else `start` is called once
   * GATHER_MS have passed since the last write started.
   */
  mayStart(urgent: boolean, start: () => void): boolean {
    const wait = urgent ? 0 : this.lastStart + GATHER_MS - Date.now();
    if (wait <= 0) {
      this.lastStart = Date.now();
      return true;
    }
    this.gathering ??= setTimeout(() => {
      this.gathering = undefined;
      start();
    }, wait);
    return false;
  }

  /**
   * Deletes from storage what D1 has once appends stop carrying it (each append's commit does):
   * the timer is not re-armed per write, it looks again while appends go on.
   */
  idleTrim(appends = this.log.appends): void {
    if (!this.log.trimPending()) {
      return;
    }
    this.trimTimer ??= setTimeout(() => {
      this.trimTimer = undefined;
      if (this.log.appends !== appends) {
        this.idleTrim();
      } else {
        this.log.trim();
      }
    }, IDLE_TRIM_MS);
  }
}
