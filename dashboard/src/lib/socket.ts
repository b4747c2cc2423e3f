import type { Frame } from "./types";

export type SocketState = "connecting" | "live" | "down";

export type SocketOptions = {
  /** The socket's URL for each (re)connection (so it can carry `?after=` the last seq seen). */
  url: () => string;
  token: () => string | null;
  onFrame: (frame: Frame) => void;
  onState: (state: SocketState, reconnected: boolean) => void;
};

const HEARTBEAT_MS = 25_000;
const SILENCE_MS = 60_000;

/** Reconnect delay: exponential from 0.5 s, capped at 15 s, with jitter. */
export const backoff = (attempt: number, random = Math.random()) =>
  Math.min(15_000, 500 * 2 ** Math.max(0, attempt - 1)) * (0.5 + random / 2);

/** A socket message's frames: one frame, or a batch (an array in seq order). */
export function parseFrames(data: unknown): Frame[] {
  try {
    const parsed = JSON.parse(data as string);
    return (Array.isArray(parsed) ? parsed : [parsed]).filter(
      (f) => f && typeof f.event === "string",
    );
  } catch {
    return [];
  }
}

/**
 * A live socket of the account API. The token travels in the `Sec-WebSocket-Protocol` header
 * (`["parley", "access_token.<token>"]`; the server answers `parley`), never in the URL.
 * Reconnects with backoff, pings to keep the line warm, and notices a silent dead line.
 */
export class LiveSocket {
  private ws: WebSocket | null = null;
  private attempts = 0;
  private stopped = true;
  private everOpen = false;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private lastHeard = 0;

  constructor(private readonly options: SocketOptions) {}

  start() {
    if (!this.stopped) {
      return;
    }
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000, "bye");
  }

  get open() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Sends a client frame; false when the socket is not open (the caller falls back). */
  send(frame: Record<string, unknown>): boolean {
    if (!this.open) {
      return false;
    }
    try {
      this.ws?.send(JSON.stringify(frame));
      return true;
    } catch {
      return false;
    }
  }

  /** Drops the connection now and reconnects (after a network change, for tests). */
  reconnect() {
    this.ws?.close(4000, "reconnect");
  }

  private clearTimers() {
    for (const t of this.timers) {
      clearTimeout(t);
    }
    this.timers = [];
  }

  private connect() {
    const token = this.options.token();
    if (this.stopped || !token) {
      return;
    }
    this.options.onState("connecting", false);
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}${this.options.url()}`, [
      "parley",
      `access_token.${token}`,
    ]);
    this.ws = ws;
    ws.onopen = () => {
      const reconnected = this.everOpen;
      this.everOpen = true;
      this.attempts = 0;
      this.lastHeard = Date.now();
      this.options.onState("live", reconnected);
      this.beat(ws);
    };
    ws.onmessage = (e) => {
      this.lastHeard = Date.now();
      for (const frame of parseFrames(e.data)) {
        this.options.onFrame(frame);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) {
        return;
      }
      this.ws = null;
      this.clearTimers();
      if (this.stopped) {
        return;
      }
      this.options.onState("down", false);
      this.attempts += 1;
      this.timers.push(setTimeout(() => this.connect(), backoff(this.attempts)));
    };
  }

  private beat(ws: WebSocket) {
    this.timers.push(
      setTimeout(() => {
        if (this.ws !== ws) {
          return;
        }
        if (Date.now() - this.lastHeard > SILENCE_MS) {
          ws.close(4001, "silent");
          return;
        }
        this.send({ type: "ping" });
        this.beat(ws);
      }, HEARTBEAT_MS),
    );
  }
}
