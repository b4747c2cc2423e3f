import { SELF } from "cloudflare:test";

export type Frame = { v: number; event: string; seq: number; data: any };

export type LiveSocket = {
  ws: WebSocket;
  /** The 101's headers (e.g. the subprotocol the server chose). */
  headers: Headers;
  /** Resolves when the server closes the socket (or the line drops), with its code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  /** Every frame, batches unpacked, in arrival order. */
  frames: Frame[];
  /** The WebSocket messages that were batches (JSON arrays of frames). */
  batches: Frame[][];
  /**
   * Resolves with the next frame of `event` not yet taken. Waits up to `ms`: a margin for a
   * loaded machine, as it only delays a failure.
   */
  next(event: string, ms?: number): Promise<Frame>;
  /** Frames of `event` received so far. */
  all(event: string): Frame[];
  send(frame: unknown): void;
  close(): void;
};

/** Opens a live socket through the Worker (SELF), like a browser would. */
export async function openSocket(
  path: string,
  headers: Record<string, string> = {},
): Promise<LiveSocket> {
  const res = await SELF.fetch(`http://parley.test${path}`, {
    headers: { Upgrade: "websocket", ...headers },
  });
  const ws = res.webSocket;
  if (res.status !== 101 || !ws) {
    throw new Error(`expected 101, got ${res.status}: ${await res.text()}`);
  }
  ws.accept();
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason })),
  );
  const frames: Frame[] = [];
  const batches: Frame[][] = [];
  const taken = new Set<Frame>();
  const waiters: (() => void)[] = [];
  ws.addEventListener("message", (e) => {
    const parsed = JSON.parse(e.data as string) as Frame | Frame[];
    if (Array.isArray(parsed)) {
      batches.push(parsed);
      frames.push(...parsed);
    } else {
      frames.push(parsed);
    }
    for (const w of waiters.splice(0)) {
      w();
    }
  });
  const find = (event: string) => frames.find((f) => f.event === event && !taken.has(f));
  return {
    ws,
    headers: res.headers,
    closed,
    frames,
    batches,
    all: (event) => frames.filter((f) => f.event === event),
    send: (frame) => ws.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    close: () => ws.close(1000, "done"),
    async next(event, ms = 15_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = find(event);
        if (found) {
          taken.add(found);
          return found;
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new Error(
            `no ${event} frame within ${ms} ms; got ${frames.map((f) => f.event).join(", ")}`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
}

/** Lets in-flight frames arrive (for asserting that something did NOT arrive). */
export const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));
