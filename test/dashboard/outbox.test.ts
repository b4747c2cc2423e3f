import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../dashboard/src/lib/api";
import type { Message } from "../../dashboard/src/lib/types";
import { type Draft, Outbox } from "../../dashboard/src/state/outbox";

const stored = (d: Draft, id = 1): Message => ({
  id,
  content: d.content,
  conversation_id: d.to,
  message_type: 1,
  seq: id,
  created_at: 1,
  private: d.private,
  status: "sent",
  content_type: "text",
  echo_id: d.echo_id,
});

function setup(socketOpen = true) {
  const frames: Record<string, unknown>[] = [];
  const posts: Draft[] = [];
  const delivered: Message[] = [];
  let answer: (d: Draft) => Promise<Message> = async (d) => stored(d);
  const outbox = new Outbox({
    socketSend: (f) => {
      if (socketOpen) {
        frames.push(f);
      }
      return socketOpen;
    },
    http: (d) => {
      posts.push(d);
      return answer(d);
    },
    delivered: (m) => delivered.push(m),
    onChange: () => undefined,
    ackMs: 1000,
  });
  const draft = (echo_id: string, files: File[] = []): Draft => ({
    echo_id,
    content: `hello ${echo_id}`,
    private: false,
    files,
    to: 5,
  });
  return {
    outbox,
    frames,
    posts,
    delivered,
    draft,
    setAnswer: (fn: typeof answer) => {
      answer = fn;
    },
    setOpen: (open: boolean) => {
      socketOpen = open;
    },
  };
}

describe("the composer's sending", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends over the socket with an echo_id and settles on the ack, without HTTP", () => {
    const t = setup();
    t.outbox.send(t.draft("a"));
    expect(t.frames).toEqual([
      { type: "message.create", echo_id: "a", content: "hello a", private: false },
    ]);
    t.outbox.stored(stored(t.draft("a")));
    t.outbox.acked("a");
    vi.advanceTimersByTime(5000);
    expect(t.posts).toEqual([]);
    expect(t.outbox.list()).toEqual([]);
    expect(t.delivered.map((m) => m.echo_id)).toEqual(["a"]);
  });

  it("falls back to HTTP with the same echo_id when the socket is closed", async () => {
    const t = setup(false);
    t.outbox.send(t.draft("b"));
    await vi.runAllTimersAsync();
    expect(t.frames).toEqual([]);
    expect(t.posts.map((d) => d.echo_id)).toEqual(["b"]);
    expect(t.outbox.list()).toEqual([]);
  });

  it("asks HTTP once, with the same echo_id, when the ack is late; a late ack changes nothing", async () => {
    const t = setup();
    t.outbox.send(t.draft("c"));
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.posts.map((d) => d.echo_id)).toEqual(["c"]);
    t.outbox.acked("c");
    t.outbox.socketClosed();
    await vi.runAllTimersAsync();
    expect(t.posts.length).toBe(1);
  });

  it("a socket that drops before the ack hands the message to HTTP once", async () => {
    const t = setup();
    t.outbox.send(t.draft("d"));
    t.outbox.socketClosed();
    t.outbox.socketClosed();
    await vi.runAllTimersAsync();
    expect(t.posts.map((d) => d.echo_id)).toEqual(["d"]);
  });

  it("files always go over HTTP", async () => {
    const t = setup();
    t.outbox.send(t.draft("e", [new File(["x"], "x.txt")]));
    await vi.runAllTimersAsync();
    expect(t.frames).toEqual([]);
    expect(t.posts.map((d) => d.echo_id)).toEqual(["e"]);
  });

  it("a refused message waits for the agent; retry reuses its echo_id", async () => {
    const t = setup();
    t.outbox.send(t.draft("f"));
    t.outbox.refused("f", "Content can't be blank");
    expect(t.outbox.list()[0]).toMatchObject({ via: "failed", error: "Content can't be blank" });
    vi.advanceTimersByTime(5000);
    expect(t.posts).toEqual([]);
    t.outbox.retry("f");
    expect(t.frames.map((f) => f.echo_id)).toEqual(["f", "f"]);
  });

  it("an HTTP failure is shown, and its retry carries the same echo_id", async () => {
    const t = setup(false);
    t.setAnswer(async () => {
      throw new ApiError(429, "rate_limited", "Too many requests");
    });
    t.outbox.send(t.draft("g"));
    await vi.runAllTimersAsync();
    expect(t.outbox.list()[0]).toMatchObject({ via: "failed", error: "Too many requests" });
    t.setAnswer(async (d) => stored(d, 9));
    t.outbox.retry("g");
    await vi.runAllTimersAsync();
    expect(t.posts.map((d) => d.echo_id)).toEqual(["g", "g"]);
    expect(t.outbox.list()).toEqual([]);
  });
});
