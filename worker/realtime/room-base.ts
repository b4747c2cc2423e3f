import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import type { Bindings } from "../env";
import type { Typer } from "../events/types";
import { createLogger } from "../lib/logger";
import { holdsSocket } from "./feed-presence";
import type { Frame, RoomEvent, SocketIdentity } from "./protocol";
import {
  closeRevoked,
  type Holder,
  holderOf,
  noteTicket,
  releaseHolder,
  revokedSince,
  revokeInRoom,
} from "./revocation";
import { RoomFrames } from "./room-frames";
import { RoomSockets } from "./room-sockets";
import {
  CONVERSATION_KEY,
  ROOM_CONVERSATION_HEADER,
  type RoomConversation,
  RoomTyping,
} from "./room-typing";
import { upgraded } from "./upgrade";

/**
 * The realtime half of a conversation's room: its sockets, the numbered event log clients
 * resume from, typing and presence. It knows nothing of messages or conversations: the class
 * bound as ROOMS (modules/conversation-room/room.ts) extends it with the message writer and hears
 * its sockets' frames (`webSocketMessage`: `sockets.receive` hands back what it must act on), and
 * `F` is the union of the frames it carries.
 */
export abstract class RoomBase<F extends Frame> extends DurableObject<Bindings> {
  /** Broadcasts run in this chain, so frames leave in the order seqs were handed out. */
  private tail: Promise<void> = Promise.resolve();
  /** Its durable frames: `frames.emit` numbers, keeps and sends one event (synchronously). */
  protected readonly frames: RoomFrames<F>;
  protected readonly sockets: RoomSockets;
  private readonly typing: RoomTyping;
  /** The stored conversation as last read or written here (conversationRef). */
  private ref: RoomConversation | undefined;
  /** An alarm is set for this time or earlier (undefined: not known, read it). */
  private alarmBy: number | undefined;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.frames = new RoomFrames<F>(ctx);
    const ttl = Number(env.TYPING_TTL_MS);
    const refill = env.FRAME_REFILL_PER_SECOND ? Number(env.FRAME_REFILL_PER_SECOND) : Number.NaN;
    this.typing = new RoomTyping(ctx, env, this.frames, ttl > 0 ? ttl : undefined);
    this.sockets = new RoomSockets(ctx, this.frames, this.typing, refill >= 0 ? refill : undefined);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** Publishes a durable conversation event to everyone allowed to see it. */
  async publish(event: RoomEvent<F>): Promise<void> {
    await this.enqueue(() => this.frames.emit(event));
  }

  /** Typing is never stored: it is relayed, and expires unless renewed. */
  async setTyping(
    typer: Typer,
    on: boolean,
    isPrivate: boolean,
    conversation: RoomConversation,
  ): Promise<void> {
    this.remember(conversation);
    await this.typing.set(typer, on, isPrivate);
  }

  override async alarm(): Promise<void> {
    this.alarmBy = undefined;
    try {
      await this.typing.expire();
    } finally {
      // What the typing expiry set is not known here: read it with the next arm.
      this.alarmBy = undefined;
    }
  }

  /**
   * Sets the alarm to `at` unless it is due earlier already (typing expiry shares it, and only
   * ever moves it earlier outside the alarm). An alarm known to be set by `at` needs no read.
   */
  protected async armAt(at: number): Promise<void> {
    if (this.alarmBy !== undefined && this.alarmBy <= at) {
      return;
    }
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) {
      await this.ctx.storage.setAlarm(at);
      this.alarmBy = at;
    } else if (current > Date.now()) {
      // One due already may be running: not counted on.
      this.alarmBy = current;
    }
  }

  /** Only the WebSocket upgrade: the Worker has authenticated the caller and says who it is. */
  override async fetch(request: Request): Promise<Response> {
    const identity = JSON.parse(
      request.headers.get("x-parley-identity") ?? "null",
    ) as SocketIdentity | null;
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket" || !identity) {
      return new Response("expected a WebSocket upgrade", { status: 426 });
    }
    const conversation = request.headers.get(ROOM_CONVERSATION_HEADER);
    if (conversation) {
      this.remember(JSON.parse(conversation) as RoomConversation);
    }
    const query = new URL(request.url).searchParams;
    const raw = query.get("after");
    const after = raw === null ? Number.NaN : Number(raw);
    const pair = new WebSocketPair();
    const holder = holderOf(identity);
    if (holder && revokedSince(this.ctx.storage.kv, holder, identity.ticket)) {
      // Authenticated before a revocation that reached this room first.
      this.ctx.acceptWebSocket(pair[1]);
      closeRevoked([pair[1]]);
      return upgraded(pair[0]);
    }
    if (holder) {
      noteTicket(this.ctx.storage.kv, holder, identity.ticket);
    }
    this.sockets.accept(
      pair[1],
      identity,
      Number.isSafeInteger(after) && after >= 0 ? after : null,
      query.get("batch") === "1",
    );
    return upgraded(pair[0]);
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    this.sockets.closed(ws, code);
    this.release(ws);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.sockets.closed(ws, 1011);
    this.release(ws);
  }

  /**
   * Access was taken away (realtime/revocation.ts, called by the account's feed): the holders'
   * sockets here close at once (null: every socket), and any of theirs still on its way in with
   * an older ticket will be closed on arrival. Answers how many closed.
   */
  async revokeSockets(holders: Holder[] | null, at: number): Promise<number> {
    const closed = revokeInRoom(this.ctx, holders, at);
    this.sockets.refreshPresence();
    this.revoked(holders);
    return closed;
  }

  /** Whether an open socket of `holder` is here (the account feed's presence asks). */
  async holds(holder: Holder): Promise<boolean> {
    return holdsSocket(this.ctx, holder);
  }

  /**
   * Closes the visitor sockets of these sessions (contact_inbox source_ids) whose access ended
   * (an inbox switched hmac_mandatory on: docs/public-api.md); reconnecting is refused.
   */
  async closeVisitorSessions(sources: string[]): Promise<number> {
    const ended = new Set(sources);
    const sockets = this.ctx.getWebSockets("contact").filter((ws) => {
      const who = ws.deserializeAttachment() as SocketIdentity | null;
      return who?.source !== undefined && ended.has(who.source);
    });
    const closed = closeRevoked(sockets);
    this.sockets.refreshPresence();
    return closed;
  }

  /** What the room's owner forgets about holders whose access was revoked (its caches). */
  protected revoked(_holders: Holder[] | null): void {}

  private release(ws: WebSocket): void {
    const done = releaseHolder(this.ctx, this.env.FEEDS, ws)?.catch((error) =>
      createLogger({ source: "room" }).error("socket directory not told", { error }),
    );
    if (done) {
      this.ctx.waitUntil(done);
    }
  }

  /** Runs `step` after every step queued before it; resolves when this one is done. */
  protected enqueue(step: () => void | Promise<void>): Promise<void> {
    const done = this.tail.then(step);
    // A failed write must not stall later broadcasts; its caller sees the error.
    this.tail = done.catch(() => undefined);
    return done;
  }

  protected db() {
    return createDb(this.env.DB);
  }

  /**
   * The conversation this room serves (undefined: never told), read from storage once and then
   * kept in memory (every socket frame asks for it; `remember` writes both).
   */
  protected conversationRef(): RoomConversation | undefined {
    this.ref ??= this.ctx.storage.kv.get<RoomConversation>(CONVERSATION_KEY);
    return this.ref;
  }

  /**
   * The conversation this room serves, kept for events the room itself originates. Written only
   * when it changed (a move to another inbox): every typing call and socket connect brings it,
   * and each write is a storage commit (a disk sync on the room's thread locally).
   */
  private remember(conversation: RoomConversation): void {
    const kept = this.conversationRef();
    if (
      kept?.id === conversation.id &&
      kept.accountId === conversation.accountId &&
      kept.inboxId === conversation.inboxId
    ) {
      return;
    }
    this.ref = conversation;
    this.ctx.storage.kv.put(CONVERSATION_KEY, conversation);
  }
}
