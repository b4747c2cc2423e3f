import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  backoff,
  LiveSocket,
  type LiveState,
  POLL_AFTER_FAILURES,
  POLL_INTERVAL_MS,
  parseFrames,
} from "../../widget/src/app/realtime/socket";

/** A WebSocket the test opens, feeds and breaks by hand. */
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  accept() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  fail() {
    this.readyState = 3;
    this.onclose?.();
  }
  frame(event: string, seq: number, data: unknown = {}) {
    this.onmessage?.({ data: JSON.stringify({ v: 1, event, seq, data }) });
  }
}

const last = () => FakeSocket.all[FakeSocket.all.length - 1] as FakeSocket;

function liveSocket() {
  let seq = 0;
  const states: LiveState[] = [];
  const frames: string[] = [];
  const poll = vi.fn(async () => {});
  const socket = new LiveSocket({
    url: () => `ws://test/live?after=${seq}`,
    onFrame: (f) => {
      seq = Math.max(seq, f.seq);
      frames.push(f.event);
    },
    onState: (s) => states.push(s),
    poll,
  });
  return { socket, states, frames, poll };
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
  vi.stubGlobal("WebSocket", FakeSocket);
  vi.spyOn(Math, "random").mockReturnValue(1);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("LiveSocket", () => {
  it("reconnects with growing delays and resumes after the last seq it saw", () => {
    const { socket, frames, states } = liveSocket();
    socket.start();
    last().accept();
    last().frame("ready", 4);
    last().frame("message.created", 5);
    last().fail();
    expect(states.at(-1)).toBe("reconnecting");
    vi.advanceTimersByTime(999);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(last().url).toBe("ws://test/live?after=5");
    last().fail();
    vi.advanceTimersByTime(1999);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);
    last().accept();
    expect(states.at(-1)).toBe("live");
    expect(frames).toEqual(["ready", "message.created"]);
    socket.stop();
  });

  it(`polls over HTTP after ${POLL_AFTER_FAILURES} failed connections, until the socket is back`, async () => {
    const { socket, poll, states } = liveSocket();
    socket.start();
    for (let i = 0; i < POLL_AFTER_FAILURES; i++) {
      last().fail();
      vi.advanceTimersByTime(backoff(i + 1, 1));
    }
    expect(states).toContain("polling");
    expect(poll).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(POLL_INTERVAL_MS);
    expect(poll).toHaveBeenCalledTimes(2);
    last().accept();
    vi.advanceTimersByTime(POLL_INTERVAL_MS * 3);
    expect(poll).toHaveBeenCalledTimes(2);
    socket.stop();
  });

  it("pings, and treats a silent connection as dead", () => {
    const { socket } = liveSocket();
    socket.start();
    last().accept();
    vi.advanceTimersByTime(25_000);
    expect(last().sent).toEqual(['{"type":"ping"}']);
    vi.advanceTimersByTime(50_000);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(backoff(1, 1));
    expect(FakeSocket.all).toHaveLength(2);
    socket.stop();
  });

  it("waits for the browser to be online instead of retrying, then reconnects at once", () => {
    const { socket } = liveSocket();
    const onLine = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    socket.start();
    last().accept();
    last().fail();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event("online"));
    expect(FakeSocket.all).toHaveLength(2);
    socket.stop();
  });

  it("sends client frames only while open", () => {
    const { socket } = liveSocket();
    socket.start();
    expect(socket.send({ type: "typing", on: true })).toBe(false);
    last().accept();
    expect(socket.send({ type: "typing", on: true })).toBe(true);
    expect(last().sent).toEqual(['{"type":"typing","on":true}']);
    socket.stop();
  });
});

describe("parseFrames", () => {
  it("accepts server frames and batches of them, and ignores anything else", () => {
    expect(parseFrames('{"v":1,"event":"pong","seq":3,"data":{}}').map((f) => f.event)).toEqual([
      "pong",
    ]);
    const batch = JSON.stringify([
      { v: 1, event: "message.created", seq: 4, data: {} },
      { v: 1, event: "message.created", seq: 5, data: {} },
    ]);
    expect(parseFrames(batch).map((f) => f.seq)).toEqual([4, 5]);
    expect(parseFrames("pong")).toEqual([]);
    expect(parseFrames('{"event":"x"}')).toEqual([]);
    expect(parseFrames('[{"event":"x"}, 3, null]')).toEqual([]);
    expect(parseFrames(new ArrayBuffer(2))).toEqual([]);
  });
});

describe("sending over the socket", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
    vi.stubGlobal("WebSocket", FakeSocket);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("resolves with the ack or error naming its echo_id; other frames go on", async () => {
    const { socket, frames } = liveSocket();
    expect(socket.ask({ type: "message.create", echo_id: "a", content: "x" })).toBeNull();
    socket.start();
    last().accept();
    const acked = socket.ask({ type: "message.create", echo_id: "a", content: "hi" });
    const refused = socket.ask({ type: "message.create", echo_id: "b", content: "" });
    expect(last().sent.map((d) => JSON.parse(d).echo_id)).toEqual(["a", "b"]);
    last().onmessage?.({
      data: JSON.stringify([
        { v: 1, event: "message.created", seq: 1, data: { echo_id: "a" } },
        { v: 1, event: "ack", seq: 1, data: { echo_id: "a", id: 7, seq: 1, duplicate: false } },
      ]),
    });
    last().frame("error", 1, { echo_id: "b", code: "validation_failed", status: 422 });
    expect((await acked)?.data).toMatchObject({ id: 7 });
    expect((await refused)?.data).toMatchObject({ status: 422 });
    expect(frames).toEqual(["message.created"]);
    socket.stop();
  });

  it("rejects as lost when the socket drops or no answer comes", async () => {
    const { socket } = liveSocket();
    socket.start();
    last().accept();
    const dropped = socket.ask({ type: "message.create", echo_id: "d", content: "x" });
    last().fail();
    await expect(dropped).rejects.toThrow("no answer");
    vi.advanceTimersByTime(60_000);
    last().accept();
    const silent = socket.ask({ type: "message.create", echo_id: "s", content: "x" });
    vi.advanceTimersByTime(10_001);
    await expect(silent).rejects.toThrow("no answer");
    socket.stop();
  });
});
