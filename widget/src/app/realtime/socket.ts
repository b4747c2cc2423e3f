import { NetworkError } from "../api/client";
import type { ClientFrame, ServerFrame } from "../api/types";

export type LiveState = "connecting" | "live" | "reconnecting" | "polling";

export type LiveOptions = {
  /** Called for every (re)connection, so it can carry `?after=` the last seq seen. */
  url: () => string;
  onFrame: (frame: ServerFrame) => void;
  onState: (state: LiveState) => void;
  /** HTTP fallback while the socket cannot be opened. */
  poll: () => Promise<void>;
};

/** After this many failed connections in a row, poll over HTTP until the socket is back. */
export const POLL_AFTER_FAILURES = 3;
export const POLL_INTERVAL_MS = 10_000;
const HEARTBEAT_MS = 25_000;
/** An ack that takes longer than this counts as lost: the outbox checks over HTTP before a retry. */
const ACK_MS = 10_000;
/** No frame at all for this long (pongs included) means the connection is dead. */
const SILENCE_MS = 60_000;
const MAX_BACKOFF_MS = 30_000;

/** Reconnect delay: exponential from 1 s, capped, with jitter so clients do not stampede. */
export const backoff = (attempt: number, random = Math.random()) =>
  Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempt - 1)) * (0.5 + random / 2);

/** A socket message's frames: one frame, or a batch (an array, in seq order). */
export function parseFrames(data: unknown): ServerFrame[] {
  try {
    const parsed = JSON.parse(data as string);
    return (Array.isArray(parsed) ? parsed : [parsed]).filter(
      (f) => f && typeof f.event === "string" && typeof f.seq === "number",
    );
  } catch {
    return [];
  }
}

type Answer = Extract<ServerFrame, { event: "ack" | "error" }>;

/** The conversation's socket: heartbeat, reconnect with backoff, HTTP polling as a fallback. */
export class LiveSocket {
  private ws: WebSocket | null = null;
  private failures = 0;
  private stopped = true;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private beatTimer: ReturnType<typeof setInterval> | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private lastFrameAt = 0;
  /** Sends awaiting their ack (or error), by echo_id. */
  private readonly waiting = new Map<string, (answer: Answer | null) => void>();

  constructor(private readonly options: LiveOptions) {}

  start() {
    this.stopped = false;
    addEventListener("online", this.wake);
    this.open();
  }

  stop() {
    this.stopped = true;
    removeEventListener("online", this.wake);
    clearTimeout(this.retryTimer);
    this.stopPolling();
    this.drop();
  }

  /** False when the socket is not open (the caller may fall back to HTTP). */
  send(frame: ClientFrame): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) {
      return false;
    }
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /**
   * Sends a message frame and resolves with its ack or error frame; null when the socket is
   * not open (the caller sends over HTTP). Rejects with NetworkError when the answer is lost.
   */
  ask(frame: ClientFrame & { echo_id: string }): Promise<Answer> | null {
    if (!this.send(frame)) {
      return null;
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => settle(null), ACK_MS);
      const settle = (answer: Answer | null) => {
        clearTimeout(timer);
        this.waiting.delete(frame.echo_id);
        answer ? resolve(answer) : reject(new NetworkError("no answer"));
      };
      this.waiting.set(frame.echo_id, settle);
    });
  }

  private open() {
    clearTimeout(this.retryTimer);
    this.drop();
    this.options.onState(
      this.pollTimer ? "polling" : this.failures ? "reconnecting" : "connecting",
    );
    const ws = new WebSocket(this.options.url());
    this.ws = ws;
    ws.onopen = () => {
      this.failures = 0;
      this.stopPolling();
      this.lastFrameAt = Date.now();
      this.beatTimer = setInterval(() => this.beat(), HEARTBEAT_MS);
      this.options.onState("live");
    };
    ws.onmessage = (e) => {
      this.lastFrameAt = Date.now();
      for (const frame of parseFrames(e.data)) {
        const echo = (frame.data as { echo_id?: string }).echo_id;
        if ((frame.event === "ack" || frame.event === "error") && echo) {
          this.waiting.get(echo)?.(frame as Answer);
        } else {
          this.options.onFrame(frame);
        }
      }
    };
    ws.onclose = () => {
      if (this.ws === ws) {
        this.lost();
      }
    };
  }

  private beat() {
    if (Date.now() - this.lastFrameAt > SILENCE_MS) {
      this.lost();
    } else {
      this.send({ type: "ping" });
    }
  }

  private lost() {
    this.drop();
    if (this.stopped) {
      return;
    }
    if (!navigator.onLine) {
      // Known offline: wait for the "online" event rather than fail attempt after attempt.
      this.options.onState("reconnecting");
      return;
    }
    this.failures++;
    if (this.failures >= POLL_AFTER_FAILURES && !this.pollTimer) {
      const poll = () => {
        if (navigator.onLine) {
          void this.options.poll().catch(() => {});
        }
      };
      this.pollTimer = setInterval(poll, POLL_INTERVAL_MS);
      poll();
    }
    this.options.onState(this.pollTimer ? "polling" : "reconnecting");
    this.retryTimer = setTimeout(() => this.open(), backoff(this.failures));
  }

  /** Back online: try now instead of waiting out the backoff. */
  private wake = () => {
    if (!this.stopped && this.ws?.readyState !== WebSocket.OPEN) {
      this.open();
    }
  };

  private drop() {
    clearInterval(this.beatTimer);
    for (const settle of this.waiting.values()) {
      settle(null);
    }
    const ws = this.ws;
    this.ws = null;
    if (!ws) {
      return;
    }
    ws.onmessage = ws.onclose = null;
    if (ws.readyState === WebSocket.CONNECTING) {
      // Closing before the handshake ends makes browsers log an error; let it open, then close.
      ws.onopen = () => ws.close();
    } else {
      ws.onopen = null;
      ws.close();
    }
  }

  private stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }
}
