import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";
import { type ControlFrame, type Frame, frame } from "./protocol";

/** Who listens: an agent (with the inboxes they may see; null = all) or an administrator. */
export type FeedListener = { userId: number; name: string; inboxIds: number[] | null };

/** A frame for the agents who may see `inboxId` (the modules type the frame, see FeedFrame). */
export type FeedEvent<F extends Frame = Frame> = { frame: F; inboxId: number };

/**
 * One per account: agents' live conversation list. Each socket only gets events of inboxes its
 * agent may see. There is no resume here: a reconnecting client refetches the list over HTTP.
 */
export class AccountFeed extends DurableObject<Bindings> {
  private seq = 0;

  async publish(event: FeedEvent): Promise<void> {
    const data = frame(event.frame, ++this.seq);
    for (const ws of this.ctx.getWebSockets()) {
      const listener = ws.deserializeAttachment() as FeedListener | null;
      if (listener && (listener.inboxIds === null || listener.inboxIds.includes(event.inboxId))) {
        try {
          ws.send(data);
        } catch {
          // dropped; its close arrives separately
        }
      }
    }
  }

  override async fetch(request: Request): Promise<Response> {
    const listener = JSON.parse(
      request.headers.get("x-parley-identity") ?? "null",
    ) as FeedListener | null;
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !listener) {
      return new Response("expected a WebSocket upgrade", { status: 426 });
    }
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    pair[1].serializeAttachment(listener);
    pair[1].send(frame<ControlFrame>({ event: "ready", data: { feed: "account" } }, this.seq));
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // The feed only speaks; a ping is answered so clients can keep the line warm.
    if (message === "ping" || (typeof message === "string" && message.includes('"ping"'))) {
      ws.send(frame<ControlFrame>({ event: "pong", data: {} }, this.seq));
    }
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // already closed
    }
  }
}
