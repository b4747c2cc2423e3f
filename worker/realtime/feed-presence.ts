import type { Bindings } from "../env";
import type { Frame } from "./protocol";

/**
 * Live presence of agents, kept by their account's feed (realtime/account-feed.ts): an agent is
 * connected while any of their feed sockets is open. The feed only counts sockets; what a
 * connection means (account_users.connected_at, the presence frame, the assignment queue) is
 * the modules' business, told through this hook, registered by worker/wiring.ts.
 */
export type PresenceHook = (
  env: Bindings,
  accountId: number,
  userId: number,
  connected: boolean,
) => Promise<Frame | null>;

/** `presence`: the account of a user whose sockets make them online (bots have none). */
export type PresenceListener = { userId: number; presence?: { accountId: number } };

/** How long after an agent's last socket closes they count as gone (a reload reconnects first). */
export const OFFLINE_GRACE_MS = 30_000;

// Isolate-level on purpose, as events/registry.ts: set once by worker/wiring.ts.
let hook: PresenceHook | null = null;

export function registerPresence(h: PresenceHook): void {
  hook = h;
}

/** The storage key of an agent whose last socket closed and who is not yet marked gone. */
const leavingKey = (accountId: number, userId: number) => `leaving:${accountId}:${userId}`;

function parseLeavingKey(key: string): { accountId: number; userId: number } | null {
  const [, account, user] = key.split(":");
  const accountId = Number(account);
  const userId = Number(user);
  return Number.isInteger(accountId) && Number.isInteger(userId) ? { accountId, userId } : null;
}

/**
 * The feed's half of presence: arrivals are told at once; a departure waits the grace period
 * (an alarm) and is told only if no socket of that agent came back meanwhile. What is pending
 * lives in the feed's storage, so hibernation or eviction loses nothing.
 */
export class FeedPresence {
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Bindings,
    private readonly publish: (frame: Frame) => Promise<void>,
  ) {}

  arrived(listener: PresenceListener): void {
    if (listener.presence) {
      this.ctx.storage.kv.delete(leavingKey(listener.presence.accountId, listener.userId));
      this.ctx.waitUntil(this.tell(listener.presence.accountId, listener.userId, true));
    }
  }

  async left(ws: WebSocket, listener: PresenceListener | null): Promise<void> {
    if (listener?.presence && !this.connected(listener.userId, ws)) {
      const at = Date.now();
      this.ctx.storage.kv.put(leavingKey(listener.presence.accountId, listener.userId), at);
      if ((await this.ctx.storage.getAlarm()) === null) {
        await this.ctx.storage.setAlarm(at + this.grace());
      }
    }
  }

  /** Agents whose last socket closed a grace period ago and who did not come back are gone. */
  async alarm(): Promise<void> {
    const grace = this.grace();
    const due = Date.now() - grace;
    let next: number | null = null;
    for (const [key, at] of this.ctx.storage.kv.list<number>({ prefix: "leaving:" })) {
      const who = parseLeavingKey(key);
      if (!who || this.connected(who.userId)) {
        this.ctx.storage.kv.delete(key);
      } else if (at <= due) {
        this.ctx.storage.kv.delete(key);
        await this.tell(who.accountId, who.userId, false);
      } else {
        next = Math.min(next ?? Number.POSITIVE_INFINITY, at + grace);
      }
    }
    if (next !== null) {
      await this.ctx.storage.setAlarm(next);
    }
  }

  /** Tells the modules, then every listener, that an agent came or went. */
  private async tell(accountId: number, userId: number, connected: boolean) {
    const changed = await hook?.(this.env, accountId, userId, connected);
    if (changed) {
      await this.publish(changed);
    }
  }

  /** Whether the user still has an open socket here (other than `leaving`). */
  private connected(userId: number, leaving?: WebSocket): boolean {
    return this.ctx.getWebSockets().some((ws) => {
      const l = ws.deserializeAttachment() as PresenceListener | null;
      return ws !== leaving && ws.readyState === WebSocket.OPEN && l?.userId === userId;
    });
  }

  private grace(): number {
    const ms = Number(this.env.PRESENCE_GRACE_MS);
    return Number.isFinite(ms) && ms > 0 ? ms : OFFLINE_GRACE_MS;
  }
}
