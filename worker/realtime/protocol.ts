import { z } from "zod";

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

export type ServerEvent =
  | "message.created"
  | "message.updated"
  | "conversation.status_changed"
  | "conversation.assignee_changed"
  | "conversation.updated"
  | "conversation.read"
  | "conversation.created"
  | "typing.on"
  | "typing.off"
  | "presence"
  | "resync"
  | "ready"
  | "pong"
  | "error";

/**
 * Every server frame. `seq` is the room's event sequence: durable events (messages,
 * conversation changes) take the next number; ephemeral ones (typing, presence, pong) repeat
 * the current one. A client resumes with the last `seq` it saw.
 */
export type ServerFrame = {
  v: typeof PROTOCOL_VERSION;
  event: ServerEvent;
  seq: number;
  data: unknown;
};

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

export const frame = (event: ServerEvent, seq: number, data: unknown): string =>
  JSON.stringify({ v: PROTOCOL_VERSION, event, seq, data } satisfies ServerFrame);
