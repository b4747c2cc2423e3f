import { z } from "zod";
import type { Typer } from "../events/types";
import type { ApiError, ErrorCode, ErrorDetail } from "../lib/errors";

/** Version of the frame format; bumped on incompatible changes. */
export const PROTOCOL_VERSION = 1;

/** Control frames are small: typing, resume, read and ping. */
export const MAX_CLIENT_FRAME_BYTES = 2048;
/** A message frame carries up to the HTTP API's 150,000 characters of content. */
export const MAX_MESSAGE_FRAME_BYTES = 1024 * 1024;
/**
 * Frame budgets per socket (token buckets). Visitors: a burst of 20, 2 a second (their
 * messages also count against the public API's per-contact message limit). Agents and bots
 * work conversations at machine speed: a burst of 200, 100 a second.
 */
export const FRAME_BUDGET = {
  contact: { burst: 20, perSecond: 2 },
  agent: { burst: 200, perSecond: 100 },
} as const;
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
  | Frame<"ack", AckData>
  | Frame<"error", ErrorFrameData>;

/** The answer to a client's `message.create`: the stored message, found by its echo_id. */
export type AckData = { echo_id: string; id: number; seq: number; duplicate: boolean };

/**
 * The HTTP API's one error body, as a frame: `code` is one of the API's error codes
 * (lib/errors.ts), `status` what HTTP would have answered, and `echo_id` names the client
 * frame it answers (absent for frame-level problems).
 */
export type ErrorFrameData = {
  code: ErrorCode;
  message: string;
  status: number;
  details: ErrorDetail[];
  echo_id?: string;
  retry_after?: number;
};

/** The one way an error frame is made: from the API's own error, as `onError` renders it. */
export function errorFrame(err: ApiError, echoId?: string): Frame<"error", ErrorFrameData> {
  const retry = Number(err.headers["Retry-After"]);
  return {
    event: "error",
    data: {
      code: err.code,
      message: err.message,
      status: err.status,
      details: err.details,
      ...(echoId === undefined ? {} : { echo_id: echoId }),
      ...(Number.isFinite(retry) ? { retry_after: retry } : {}),
    },
  };
}

/**
 * Every frame on the wire: `seq` is the room's event sequence. Durable events (messages,
 * conversation changes) take the next number; ephemeral ones (typing, presence, pong) repeat
 * the current one. A client resumes with the last `seq` it saw.
 */
export type Numbered<F extends Frame> = F & { v: typeof PROTOCOL_VERSION; seq: number };

/** One event for the room's two audiences; `contact: null` hides it from the contact. */
export type RoomEvent<F extends Frame> = { agent: F; contact: F | null };

/** The client's name for a message it sends, repeated in the answer (ack or error). */
const EchoId = z.string().min(1).max(255);

/**
 * A message sent over the socket. Its fields are checked by the same rules as the HTTP API's
 * (the room hands them to the message service); here only the envelope.
 */
const MessageCreateFrame = z.object({
  type: z.literal("message.create"),
  echo_id: EchoId,
  content: z.unknown().optional(),
  private: z.unknown().optional(),
  content_type: z.unknown().optional(),
  content_attributes: z.unknown().optional(),
});

export const ClientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("typing"), on: z.boolean(), private: z.boolean().optional() }),
  z.object({ type: z.literal("resume"), after: z.number().int().min(0) }),
  z.object({ type: z.literal("ping") }),
  /** The sender has read the conversation up to now (the HTTP API's update_last_seen). */
  z.object({ type: z.literal("read") }),
  MessageCreateFrame,
]);

export type ClientFrame = z.infer<typeof ClientFrameSchema>;

/**
 * A refused frame (over the budget) is read for its echo_id only up to this size, so a flood
 * costs little parsing; a larger refused frame is answered without one.
 */
export const MAX_ECHO_READ_BYTES = 64 * 1024;

/** The echo_id a client frame's JSON names, when it is one (the refusal then names it). */
export function echoIdIn(value: unknown): string | undefined {
  const id = (value as { echo_id?: unknown } | null)?.echo_id;
  return EchoId.safeParse(id).success ? (id as string) : undefined;
}

/** The echo_id of a frame not read yet, if it is JSON text of at most MAX_ECHO_READ_BYTES. */
export function echoIdOfText(message: string | ArrayBuffer): string | undefined {
  if (typeof message !== "string" || message.length > MAX_ECHO_READ_BYTES) {
    return undefined;
  }
  try {
    return echoIdIn(JSON.parse(message));
  } catch {
    return undefined;
  }
}
/** Client frames the realtime layer hands to the room's owner (it knows no messages). */
export type ActionFrame = Extract<ClientFrame, { type: "message.create" | "read" }>;
export type MessageFrame = Extract<ClientFrame, { type: "message.create" }>;
/** What an action answers its socket with: an ack, an error, or nothing. */
export type ActionReply = ControlFrame | null;

/** Who is on a socket, kept in its hibernation attachment. */
export type SocketIdentity = {
  role: "agent" | "contact";
  id: number;
  name: string;
  /** For agents: "user" or "agent_bot". */
  kind: "user" | "agent_bot" | "contact";
  /** The origin the socket was opened on (absolute URLs in what the room presents). */
  origin?: string;
  /** A visitor's session in the inbox (its contact_inbox source_id). */
  source?: string;
} & Ticketed;

/**
 * An agent socket's place in its account's socket directory (realtime/revocation.ts): the
 * ticket taken before its access was read, and the directory (the feed's id) to tell when the
 * holder's last socket in a room has closed.
 */
export type Ticketed = { ticket?: number; directory?: string };

export const frame = <F extends Frame>(f: F, seq: number): string =>
  JSON.stringify({
    v: PROTOCOL_VERSION,
    event: f.event,
    seq,
    data: f.data,
  } satisfies Numbered<Frame>);

/**
 * The WebSocket subprotocol Parley's sockets speak. A browser cannot set headers on a
 * WebSocket, so an agent's client offers its token as a second subprotocol beside this one,
 * `new WebSocket(url, ["parley", "access_token." + token])`, and the 101 names only "parley".
 */
export const SOCKET_PROTOCOL = "parley";

/** The subprotocols an upgrade request offers, in its order. */
export function offeredProtocols(headers: Headers): string[] {
  return (headers.get("sec-websocket-protocol") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}
