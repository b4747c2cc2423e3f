import type { Bindings } from "../env";
import type { Frame } from "./protocol";
import { type Holder, holderTag, type SocketDirectory } from "./revocation";

/**
 * Live presence of agents, kept by their account's feed (realtime/account-feed.ts): an agent is
 * connected while any of their sockets to the account is open, the feed's own or a conversation
 * room's (the feed is the account's socket directory: realtime/revocation.ts tracks which rooms
 * hold whose sockets). The feed only counts sockets; what a connection means
 * (account_users.connected_at, the presence frame, the assignment queue) is the modules'
 * business, told through this hook, registered by worker/wiring.ts.
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

/**
 * A room socket is tracked before it opens (its access is read again in between): the agent
 * counts as arrived at once, and this long after, unless the room then holds a socket of theirs
 * (or another socket does), as gone again — a socket that never opened keeps nobody online.
 */
const ROOM_OPEN_CHECK_MS = 10_000;

/** The room's side, as presence asks it whether a holder's socket is really there. */
export type PresenceRoom = { holds(holder: Holder): Promise<boolean> };

/** Whether a Durable Object has an open socket of `holder` (rooms answer `holds` with it). */
export function holdsSocket(ctx: DurableObjectState, holder: Holder): boolean {
  return ctx.getWebSockets(holderTag(holder)).some((ws) => ws.readyState === WebSocket.OPEN);
}

// Isolate-level on purpose, as events/registry.ts: set once by worker/wiring.ts.
let hook: PresenceHook | null = null;

export function registerPresence(h: PresenceHook): void {
  hook = h;
}

/**
 * Storage keys of agents to check, each holding when: `leaving` (their last socket closed; gone
 * after the grace) and `opening` (a room socket was tracked; gone if it never opened). A due
 * `leaving` check waits for a pending `opening` one, which decides.
 */
type CheckKind = "leaving" | "opening";
const checkKey = (kind: CheckKind, accountId: number, userId: number) =>
  `${kind}:${accountId}:${userId}`;

function parseCheckKey(key: string) {
  const [kind, account, user] = key.split(":");
  const accountId = Number(account);
  const userId = Number(user);
  return Number.isInteger(accountId) && Number.isInteger(userId)
    ? { kind: kind as CheckKind, accountId, userId }
    : null;
}

const ACCOUNT_KEY = "presence:account";

/**
 * The feed's half of presence: arrivals are told at once; a departure waits the grace period
 * (an alarm) and is told only if no socket of that agent, here or in a room, is open by then.
 * What is pending (key → when to check) lives in the feed's storage, so hibernation or eviction
 * loses nothing.
 */
export class FeedPresence {
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Bindings,
    private readonly directory: SocketDirectory,
    private readonly publish: (frame: Frame) => Promise<void>,
  ) {}

  arrived(listener: PresenceListener): void {
    if (listener.presence) {
      this.ctx.storage.kv.delete(checkKey("leaving", listener.presence.accountId, listener.userId));
      this.ctx.storage.kv.delete(checkKey("opening", listener.presence.accountId, listener.userId));
      this.ctx.waitUntil(this.tell(listener.presence.accountId, listener.userId, true));
    }
  }

  /** A room socket of `holder` is about to open (tracked): they arrive, checked again later. */
  async roomTracked(holder: Holder, accountId: number | undefined): Promise<void> {
    if (accountId !== undefined) {
      this.ctx.storage.kv.put(ACCOUNT_KEY, accountId);
    }
    const account = this.ctx.storage.kv.get<number>(ACCOUNT_KEY);
    if (holder.kind !== "user" || account === undefined) {
      return;
    }
    if (!this.feedConnected(holder.id)) {
      this.ctx.waitUntil(this.tell(account, holder.id, true));
    }
    const due = Date.now() + Math.max(this.grace(), ROOM_OPEN_CHECK_MS);
    await this.check("opening", account, holder.id, due);
  }

  /** A room's last socket of `holder` closed: gone after the grace, unless another is open. */
  async roomLeft(holder: Holder): Promise<void> {
    const account = this.ctx.storage.kv.get<number>(ACCOUNT_KEY);
    if (holder.kind === "user" && account !== undefined) {
      await this.check("leaving", account, holder.id, Date.now() + this.grace());
    }
  }

  async left(ws: WebSocket, listener: PresenceListener | null): Promise<void> {
    if (listener?.presence && !this.feedConnected(listener.userId, ws)) {
      const due = Date.now() + this.grace();
      await this.check("leaving", listener.presence.accountId, listener.userId, due);
    }
  }

  /** Access was revoked: whoever may have lost their last socket is checked after the grace. */
  async recheck(userIds: Iterable<number>): Promise<void> {
    const account = this.ctx.storage.kv.get<number>(ACCOUNT_KEY);
    if (account !== undefined) {
      for (const userId of userIds) {
        await this.check("leaving", account, userId, Date.now() + this.grace());
      }
    }
  }

  /** Agents due for a check with no open socket, here or in a room, are gone. */
  async alarm(): Promise<void> {
    const now = Date.now();
    let next: number | null = null;
    const { kv } = this.ctx.storage;
    const due = [
      ...kv.list<number>({ prefix: "leaving:" }),
      ...kv.list<number>({ prefix: "opening:" }),
    ];
    for (const [key, at] of due) {
      const who = parseCheckKey(key);
      if (!who || this.feedConnected(who.userId)) {
        kv.delete(key);
      } else if (at > now) {
        next = Math.min(next ?? Number.POSITIVE_INFINITY, at);
      } else {
        kv.delete(key);
        const opening =
          who.kind === "leaving" && kv.get(checkKey("opening", who.accountId, who.userId));
        if (!opening && !(await this.inRoom(who.userId))) {
          await this.tell(who.accountId, who.userId, false);
        }
      }
    }
    if (next !== null) {
      await this.ctx.storage.setAlarm(next);
    }
  }

  /** Checks the agent at `due` (a pending check of the same kind is moved there). */
  private async check(kind: CheckKind, accountId: number, userId: number, due: number) {
    this.ctx.storage.kv.put(checkKey(kind, accountId, userId), due);
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > due) {
      await this.ctx.storage.setAlarm(due);
    }
  }

  /** Tells the modules, then every listener, that an agent came or went. */
  private async tell(accountId: number, userId: number, connected: boolean) {
    const changed = await hook?.(this.env, accountId, userId, connected);
    if (changed) {
      await this.publish(changed);
    }
  }

  /** Whether the user still has an open feed socket here (other than `leaving`). */
  private feedConnected(userId: number, leaving?: WebSocket): boolean {
    return this.ctx.getWebSockets().some((ws) => {
      const l = ws.deserializeAttachment() as PresenceListener | null;
      return ws !== leaving && ws.readyState === WebSocket.OPEN && l?.userId === userId;
    });
  }

  /** Whether a room the directory lists for the user holds an open socket of theirs. */
  private async inRoom(userId: number): Promise<boolean> {
    const holder: Holder = { kind: "user", id: userId };
    for (const room of this.directory.roomsOf(holder)) {
      const stub = this.env.ROOMS.get(this.env.ROOMS.idFromString(room)) as unknown as PresenceRoom;
      try {
        if (await stub.holds(holder)) {
          return true;
        }
      } catch {
        // a room that cannot answer holds nothing we can count on
      }
    }
    return false;
  }

  private grace(): number {
    const ms = Number(this.env.PRESENCE_GRACE_MS);
    return Number.isFinite(ms) && ms > 0 ? ms : OFFLINE_GRACE_MS;
  }
}
