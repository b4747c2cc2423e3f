import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";
import { createLogger } from "../lib/logger";
import { FeedPresence, type PresenceListener } from "./feed-presence";
import { type ControlFrame, type Frame, frame, type Ticketed } from "./protocol";
import {
  closeRevoked,
  type Holder,
  holderTag,
  markRevoked,
  type RevocableRoom,
  type Revocation,
  revokedSince,
  SocketDirectory,
} from "./revocation";
import { upgraded } from "./upgrade";

/** Who listens: an agent (with the inboxes they may see; null = all) or an administrator. */
export type FeedListener = { userId: number; name: string; inboxIds: number[] | null } & Ticketed &
  PresenceListener;

/**
 * A frame for the agents who may see `inboxId` (the modules type the frame, see FeedFrame), or
 * for one user's sockets only (`userId`: their notifications).
 */
export type FeedEvent<F extends Frame = Frame> =
  | { frame: F; inboxId: number; userId?: undefined }
  | { frame: F; userId: number; inboxId?: undefined }
  /** Every listener (presence). */
  | { frame: F; inboxId: null; userId?: undefined };

const hears = (listener: FeedListener, event: FeedEvent) => {
  if (event.inboxId === null) {
    return true;
  }
  return event.userId !== undefined
    ? listener.userId === event.userId
    : listener.inboxIds === null || listener.inboxIds.includes(event.inboxId);
};

const listenerHolder = (listener: FeedListener): Holder => ({ kind: "user", id: listener.userId });

/**
 * One per account: agents' live conversation list. Each socket only gets events of inboxes its
 * agent may see. There is no resume here: a reconnecting client refetches the list over HTTP.
 * It is also the account's socket directory (realtime/revocation.ts): revoked access ends here.
 */
export class AccountFeed extends DurableObject<Bindings> {
  private seq = 0;
  private readonly directory: SocketDirectory;
  private readonly presence: FeedPresence;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.directory = new SocketDirectory(ctx.storage);
    this.presence = new FeedPresence(ctx, env, this.directory, (f) =>
      this.publish({ frame: f, inboxId: null }),
    );
  }

  async publish(event: FeedEvent): Promise<void> {
    await this.publishAll([event]);
  }

  /**
   * Frames in order (an account's log writer sends those of a D1 transaction together): each
   * socket's listener is read once for them all.
   */
  async publishAll(events: FeedEvent[]): Promise<void> {
    const listeners = this.ctx
      .getWebSockets()
      .map((ws) => ({ ws, listener: ws.deserializeAttachment() as FeedListener | null }));
    for (const event of events) {
      const data = frame(event.frame, ++this.seq);
      for (const { ws, listener } of listeners) {
        if (listener && hears(listener, event)) {
          try {
            ws.send(data);
          } catch {
            // dropped (or closing: its access was revoked); its close arrives separately
          }
        }
      }
    }
  }

  /**
   * Before a socket opens: its ticket, and (room sockets) the room that will hold it; an agent's
   * room socket counts toward their presence (`accountId`: this feed's account).
   */
  async track(
    holder: Holder,
    room: string | null,
    inboxId: number | null,
    accountId?: number,
  ): Promise<number> {
    const ticket = this.directory.track(holder, room, inboxId);
    if (room !== null) {
      await this.presence.roomTracked(holder, accountId);
    }
    return ticket;
  }

  /** A room's last socket of `holder` closed (unless a newer one is on its way there). */
  async untrack(holder: Holder, room: string, ticket: number): Promise<void> {
    this.directory.untrack(holder, room, ticket);
    await this.presence.roomLeft(holder);
  }

  /**
   * Access was taken away: this feed's sockets that depended on it close, and so do the rooms'
   * sockets of those holders, before this resolves (the HTTP answer that revoked waits for it).
   */
  async revoke(r: Revocation): Promise<void> {
    const at = this.directory.next();
    // Whoever may lose their last socket here is checked for presence after the grace.
    const users = new Set(
      r.holders === null
        ? [...this.directory.users(), ...this.feedUsers()]
        : r.holders.filter((h) => h.kind === "user").map((h) => h.id),
    );
    const accountWide = r.holders === null && r.inboxId === null;
    // A deleted inbox sends no more frames to anyone's feed; its rooms are closed below.
    if (r.holders !== null || accountWide) {
      markRevoked(this.ctx.storage.kv, r.holders, at);
      const sockets = (r.holders ?? [null]).flatMap((h) =>
        this.ctx.getWebSockets(h ? holderTag(h) : undefined),
      );
      closeRevoked(
        sockets.filter((ws) => {
          const listener = ws.deserializeAttachment() as FeedListener | null;
          // Losing an inbox changes nothing for a listener who sees every inbox.
          return r.inboxId === null || (listener?.inboxIds?.includes(r.inboxId) ?? false);
        }),
      );
    }
    const rooms = this.directory.take(r);
    const results = await Promise.allSettled(
      rooms.map((room) =>
        (
          this.env.ROOMS.get(this.env.ROOMS.idFromString(room)) as unknown as RevocableRoom
        ).revokeSockets(r.holders, at),
      ),
    );
    await this.presence.recheck(users);
    const failed = results.filter((x) => x.status === "rejected");
    if (failed.length > 0) {
      createLogger({ source: "feed" }).error("rooms not told of a revocation", {
        rooms: failed.length,
        error: (failed[0] as PromiseRejectedResult).reason,
      });
    }
  }

  private feedUsers(): number[] {
    return this.ctx
      .getWebSockets()
      .flatMap((ws) => (ws.deserializeAttachment() as FeedListener | null)?.userId ?? []);
  }

  override async fetch(request: Request): Promise<Response> {
    const listener = JSON.parse(
      request.headers.get("x-parley-identity") ?? "null",
    ) as FeedListener | null;
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !listener) {
      return new Response("expected a WebSocket upgrade", { status: 426 });
    }
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], [holderTag(listenerHolder(listener))]);
    pair[1].serializeAttachment(listener);
    if (revokedSince(this.ctx.storage.kv, listenerHolder(listener), listener.ticket)) {
      // Authenticated before a revocation that reached here first.
      closeRevoked([pair[1]]);
    } else {
      pair[1].send(frame<ControlFrame>({ event: "ready", data: { feed: "account" } }, this.seq));
      this.presence.arrived(listener);
    }
    return upgraded(pair[0]);
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // The feed only speaks; a ping is answered so clients can keep the line warm.
    if (message === "ping" || (typeof message === "string" && message.includes('"ping"'))) {
      try {
        ws.send(frame<ControlFrame>({ event: "pong", data: {} }, this.seq));
      } catch {
        // closing: its access was revoked
      }
    }
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // already closed
    }
    await this.presence.left(ws, ws.deserializeAttachment() as FeedListener | null);
  }

  override async alarm(): Promise<void> {
    await this.presence.alarm();
  }
}
