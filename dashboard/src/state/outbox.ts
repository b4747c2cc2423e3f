import { ApiError } from "../lib/api";
import type { Message } from "../lib/types";

export type Draft = {
  echo_id: string;
  content: string;
  private: boolean;
  files: File[];
  /** The conversation it is for (the agent may have moved on by the time HTTP is asked). */
  to: number;
};
export type Pending = Draft & {
  /** How it is travelling: over the socket (waiting for its ack), over HTTP, or stopped. */
  via: "socket" | "http" | "failed";
  error?: string;
};

export type OutboxDeps = {
  /** Sends a frame over the room socket; false when it is not open. */
  socketSend: (frame: Record<string, unknown>) => boolean;
  /** POST …/messages (multipart when there are files) with the draft's echo_id. */
  http: (draft: Draft) => Promise<Message>;
  /** The stored message, however it came back. */
  delivered: (message: Message) => void;
  onChange: () => void;
  /** How long an ack may take before HTTP is asked instead (same echo_id: never stored twice). */
  ackMs?: number;
};

/**
 * The composer's sending: over the socket with an echo_id, falling back to HTTP when the socket
 * is closed, drops or the ack is late. Every attempt of a message carries the same echo_id, and
 * the server stores one message per echo_id (docs/realtime.md), so a retry never sends twice.
 */
export class Outbox {
  readonly pending = new Map<string, Pending>();
  private timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly deps: OutboxDeps) {}

  list(): Pending[] {
    return [...this.pending.values()];
  }

  send(draft: Draft) {
    const item: Pending = { ...draft, via: "socket" };
    this.pending.set(draft.echo_id, item);
    this.attempt(item);
  }

  retry(echoId: string) {
    const item = this.pending.get(echoId);
    if (item && item.via === "failed") {
      item.error = undefined;
      this.attempt(item);
    }
  }

  discard(echoId: string) {
    this.settle(echoId);
  }

  private attempt(item: Pending) {
    const frame = {
      type: "message.create",
      echo_id: item.echo_id,
      content: item.content,
      private: item.private,
    };
    if (item.files.length === 0 && this.deps.socketSend(frame)) {
      item.via = "socket";
      this.timers.set(
        item.echo_id,
        setTimeout(() => this.overHttp(item.echo_id), this.deps.ackMs ?? 8000),
      );
    } else {
      this.overHttp(item.echo_id);
    }
    this.deps.onChange();
  }

  private overHttp(echoId: string) {
    const item = this.pending.get(echoId);
    if (!item || item.via === "http") {
      return;
    }
    clearTimeout(this.timers.get(echoId));
    item.via = "http";
    this.deps.onChange();
    this.deps.http(item).then(
      (message) => this.stored(message),
      (err: unknown) => {
        if (this.pending.get(echoId) === item) {
          item.via = "failed";
          item.error = err instanceof ApiError ? err.message : "Not sent: check your connection";
          this.deps.onChange();
        }
      },
    );
  }

  private settle(echoId: string) {
    clearTimeout(this.timers.get(echoId));
    this.timers.delete(echoId);
    if (this.pending.delete(echoId)) {
      this.deps.onChange();
    }
  }

  /** A message stored with one of our echo_ids (its frame, the HTTP answer, or both). */
  stored(message: Message) {
    this.deps.delivered(message);
    if (message.echo_id) {
      this.settle(message.echo_id);
    }
  }

  /** The socket's `ack`: stored (its message.created frame came just before). */
  acked(echoId: string) {
    this.settle(echoId);
  }

  /** The socket's `error` frame for one of ours: nothing was stored. */
  refused(echoId: string, message: string) {
    const item = this.pending.get(echoId);
    if (item && item.via === "socket") {
      clearTimeout(this.timers.get(echoId));
      item.via = "failed";
      item.error = message;
      this.deps.onChange();
    }
  }

  /** The socket closed: whatever waits for an ack goes over HTTP now. */
  socketClosed() {
    for (const item of this.pending.values()) {
      if (item.via === "socket") {
        this.overHttp(item.echo_id);
      }
    }
  }
}
