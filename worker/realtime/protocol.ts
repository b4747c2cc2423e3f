import { z } from "zod";
import type { Typer } from "../events/types";

/** Version of the frame format; bumped on incompatible changes. */
export const PROTOCOL_VERSION = 1;

/** Client frames are small: typing, resume and ping. */
export const MAX_CLIENT_FRAME_BYTES = 2048;
/** Per socket: a burst of 20 frames, refilled at 2 per second. */
export const FRAME_BURST = 20;
export const FRAME_REFILL_PER_SECOND = 2;
/** Typing indicators expire unless renewed within this time. */
export const TYPING_TTL_MS = 6000;
/** Events a room keeps for resuming clients; older gaps answer `resync`. */
export const EVENT_LOG_LIMIT = 5000;

/** A frame's body before it is numbered: its name and the data for one audience. */
export type Frame<E extends string = string, D = unknown> = { event: E; data: D };

export type TypingData = { typer: Typer; is_private: boolean };

/**
 * The frames the realtime layer makes itself. The frames of records (messages, conversation
 * changes) are built by the modules and complete the union there (modules/live/frames.ts).
 */
export type ControlFrame =
  | Frame<"ready", { role: SocketIdentity["role"]; seq: number } | { feed: "account" }>
  | Frame<"typing.on", TypingData>
  | Frame<"typing.off", TypingData>
  | Frame<
      "presence",
      {
        agents_online: { id: number; name: string; type: string }[];
        contact_online: boolean;
      }
    >
  | Frame<"resync", { reason: string }>
  | Frame<"pong", Record<string, never>>
  | Frame<"error", { code: string; message: string }>;

/**
 * Every frame on the wire: `seq` is the room's event sequence. Durable events (messages,
 * conversation changes) take the next number; ephemeral ones (typing, presence, pong) repeat
 * the current one. A client resumes with the last `seq` it saw.
 */
export type Numbered<F extends Frame> = F & { v: typeof PROTOCOL_VERSION; seq: number };

/** One event for the room's two audiences; `contact: null` hides it from the contact. */
export type RoomEvent<F extends Frame> = { agent: F; contact: F | null };

export const ClientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("typing"), on: z.boolean(), private: z.boolean().optional() }),
  z.object({ type: z.literal("resume"), after: z.number().int().min(0) }),
  z.object({ type: z.literal("ping") }),
]);

export type ClientFrame = z.infer<typeof ClientFrameSchema>;

/** Who is on a socket, kept in its hibernation attachment. */
export type SocketIdentity = {
  role: "agent" | "contact";
  id: number;
  name: string;
  /** For agents: "user" or "agent_bot". */
  kind: "user" | "agent_bot" | "contact";
};

export const frame = <F extends Frame>(f: F, seq: number): string =>
  JSON.stringify({
    v: PROTOCOL_VERSION,
    event: f.event,
    seq,
    data: f.data,
  } satisfies Numbered<Frame>);
