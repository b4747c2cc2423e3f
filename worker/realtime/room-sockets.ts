import { ApiError, type ErrorCode } from "../lib/errors";
import {
  type ActionFrame,
  type ClientFrame,
  ClientFrameSchema,
  type ControlFrame,
  echoIdIn,
  echoIdOfText,
  errorFrame,
  FRAME_BUDGET,
  type Frame,
  frame,
  MAX_CLIENT_FRAME_BYTES,
  MAX_MESSAGE_FRAME_BYTES,
  type SocketIdentity,
} from "./protocol";
import { holderOf, holderTag } from "./revocation";
import { type RoomFrames, sendAll, socketTags } from "./room-frames";
import type { RoomTyping } from "./room-typing";

type Attachment = SocketIdentity & { connectedAt: number; batch?: boolean };
type Bucket = { tokens: number; at: number; strikes: number };
/** A message or read frame, handed back to the room's owner: the realtime layer knows neither. */
export type Heard = { who: SocketIdentity; action: ActionFrame };

const AGENT = "agent";
const CONTACT = "contact";

/**
 * The room's sockets (hibernatable: identity lives in each socket's attachment and tags) and
 * what only concerns them: accepting and resuming them, presence, frame limits; every frame
 * reaches them through `RoomFrames` (room-frames.ts), typing through `RoomTyping`.
 */
export class RoomSockets {
  /** Frame budgets; lost on hibernation, which only forgives a little. */
  private readonly buckets = new WeakMap<WebSocket, Bucket>();

  constructor(
    private readonly ctx: DurableObjectState,
    /** The room's durable frames (numbered, kept for resume) and the fan-out of every frame. */
    private readonly frames: RoomFrames<Frame>,
    /** Who is typing (a socket's typing frames, a newcomer's state). */
    private readonly typing: RoomTyping,
    /** Replaces every role's refill rate (frames a second); tests set 0 (env.ts). */
    private readonly refillPerSecond?: number,
  ) {}

  accept(ws: WebSocket, identity: SocketIdentity, after: number | null, batch = false): void {
    const holder = holderOf(identity);
    this.ctx.acceptWebSocket(ws, [
      ...socketTags(identity.role, batch),
      ...(holder ? [holderTag(holder)] : []),
    ]);
    ws.serializeAttachment({ ...identity, connectedAt: Date.now(), batch } satisfies Attachment);
    const seq = this.frames.current();
    this.frames.flush();
    ws.send(frame<ControlFrame>({ event: "ready", data: { role: identity.role, seq } }, seq));
    if (after !== null) {
      this.resume(ws, identity.role, after);
    }
    for (const f of this.typing.now(identity.role)) {
      this.reply(ws, f);
    }
    this.presence();
  }

  /**
   * A client frame: its budget, size and envelope are checked and control frames answered here;
   * a message or read frame is handed back (with who sent it) for the room's owner to act on and
   * answer (`reply`). Null: nothing more to do.
   */
  async receive(ws: WebSocket, message: string | ArrayBuffer): Promise<Heard | null> {
    if (ws.readyState !== WebSocket.OPEN) {
      return null; // closing (its access was revoked): nothing it sends is heard
    }
    const me = ws.deserializeAttachment() as Attachment | null;
    if (!me) {
      ws.close(1011, "unknown socket");
      return null;
    }
    if (!this.allow(ws, me.role, message)) {
      return null;
    }
    const size = typeof message === "string" ? message.length : message.byteLength;
    if (typeof message !== "string" || size > MAX_MESSAGE_FRAME_BYTES) {
      this.error(ws, "frame_too_large", "frames are JSON text of at most 1 MiB");
      return null;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(message);
    } catch {
      this.error(ws, "bad_frame");
      return null;
    }
    const checked = ClientFrameSchema.safeParse(raw);
    if (!checked.success) {
      this.error(ws, "bad_frame", undefined, echoIdIn(raw));
      return null;
    }
    const parsed: ClientFrame = checked.data;
    if (parsed.type !== "message.create" && size > MAX_CLIENT_FRAME_BYTES) {
      this.error(
        ws,
        "frame_too_large",
        `control frames are at most ${MAX_CLIENT_FRAME_BYTES} bytes`,
      );
      return null;
    }
    switch (parsed.type) {
      case "ping":
        this.reply(ws, { event: "pong", data: {} });
        return null;
      case "message.create":
      case "read":
        return { who: me, action: parsed };
      case "resume":
        this.resume(ws, me.role, parsed.after);
        return null;
      case "typing": {
        const isPrivate = me.role === AGENT && (parsed.private ?? false);
        await this.typing.set({ type: me.kind, id: me.id, name: me.name }, parsed.on, isPrivate);
        return null;
      }
    }
  }

  closed(ws: WebSocket, code: number): void {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // already closed
    }
    this.presence(ws);
  }

  private resume(ws: WebSocket, role: SocketIdentity["role"], after: number): void {
    const frames = this.frames.since(after, role);
    if (frames === null) {
      this.reply(ws, {
        event: "resync",
        data: { reason: "events before your seq are gone; refetch over HTTP" },
      });
      return;
    }
    this.frames.flush();
    for (const f of frames) {
      ws.send(f);
    }
  }

  /** Tells everyone who is here now (after sockets were closed from this side). */
  refreshPresence(): void {
    this.presence();
  }

  /** Who is here: agents online (by user) and whether the contact is connected. */
  private presence(leaving?: WebSocket): void {
    const here = this.ctx
      .getWebSockets()
      .filter((ws) => ws !== leaving && ws.readyState === WebSocket.OPEN);
    const people = here
      .map((ws) => ws.deserializeAttachment() as Attachment | null)
      .filter((a) => a !== null);
    const agents = new Map<string, { id: number; name: string; type: string }>();
    for (const a of people) {
      if (a.role === AGENT) {
        agents.set(`${a.kind}:${a.id}`, { id: a.id, name: a.name, type: a.kind });
      }
    }
    const data = frame<ControlFrame>(
      {
        event: "presence",
        data: {
          agents_online: [...agents.values()],
          contact_online: people.some((a) => a.role === CONTACT),
        },
      },
      this.frames.current(),
    );
    this.send(here, data);
  }

  /**
   * Spends one frame of the socket's budget. Refused, the error names the frame's echo_id when
   * it is small enough to read (echoIdOfText), and says when a frame is allowed again.
   */
  private allow(
    ws: WebSocket,
    role: SocketIdentity["role"],
    message: string | ArrayBuffer,
  ): boolean {
    const now = Date.now();
    const { burst } = FRAME_BUDGET[role];
    const perSecond = this.refillPerSecond ?? FRAME_BUDGET[role].perSecond;
    const bucket = this.buckets.get(ws) ?? { tokens: burst, at: now, strikes: 0 };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.buckets.set(ws, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return true;
    }
    bucket.strikes += 1;
    if (bucket.strikes > burst) {
      ws.close(1008, "too many frames");
    } else {
      const wait = perSecond > 0 ? Math.ceil((1 - bucket.tokens) / perSecond) : 1;
      const err = new ApiError("rate_limited", "too many frames; slow down", [], {
        "Retry-After": String(Math.max(1, wait)),
      });
      this.reply(ws, errorFrame(err, echoIdOfText(message)));
    }
    return false;
  }

  private error(ws: WebSocket, code: ErrorCode, message?: string, echoId?: string): void {
    this.reply(ws, errorFrame(new ApiError(code, message), echoId));
  }

  /** One socket's own answer (an ack, an error), after every durable frame it is owed. */
  reply(ws: WebSocket, f: ControlFrame): void {
    this.send([ws], frame<ControlFrame>(f, this.frames.current()));
  }

  private send(sockets: WebSocket[], data: string): void {
    this.frames.flush();
    sendAll(sockets, data);
  }
}
