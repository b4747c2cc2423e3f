import { describe, expect, it } from "vitest";
import { errorStatus } from "../../worker/lib/errors";
import { FRAME_BUDGET, MAX_ECHO_READ_BYTES } from "../../worker/realtime/protocol";
import { api } from "../support/http";
import { agentInRoom } from "../support/room-log";

/** An error frame is the HTTP API's error body: a code of its one list, its status, details. */
function expectApiError(frame: { event: string; data: Record<string, unknown> }, code: string) {
  expect(frame.event).toBe("error");
  expect(Object.keys(errorStatus)).toContain(frame.data.code);
  expect(frame.data).toMatchObject({
    code,
    status: errorStatus[code as keyof typeof errorStatus],
    message: expect.any(String),
    details: expect.any(Array),
  });
}

describe("socket error frames", () => {
  it("are rendered from the API's one error vocabulary, frame-level ones included", async () => {
    const { socket } = await agentInRoom();
    socket.send("not json");
    expectApiError(await socket.next("error"), "bad_frame");
    socket.send(JSON.stringify({ type: "ping", pad: "x".repeat(5000) }));
    expectApiError(await socket.next("error"), "frame_too_large");
    socket.send({ type: "message.create", echo_id: "blank-1", content: "   " });
    const blank = await socket.next("error");
    expectApiError(blank, "validation_failed");
    expect(blank.data).toMatchObject({ echo_id: "blank-1", details: [{ path: "content" }] });
    // The frame budget does not refill in tests (FRAME_REFILL_PER_SECOND=0).
    for (let i = 0; i < FRAME_BUDGET.agent.burst; i++) {
      socket.send({ type: "ping" });
    }
    expectApiError(await socket.next("error"), "rate_limited");
    socket.close();
  });

  it("name the refused frame's echo_id when it can be read, so the sender knows which to retry", async () => {
    const { socket, base, agent } = await agentInRoom();
    // Not a client frame, but it names an echo_id: the refusal says which send it was.
    socket.send({ type: "message.creat", echo_id: "typo-1", content: "hi" });
    const typo = await socket.next("error");
    expectApiError(typo, "bad_frame");
    expect(typo.data.echo_id).toBe("typo-1");
    // An echo_id that is not one (too long) is not repeated.
    socket.send({ type: "message.creat", echo_id: "x".repeat(256) });
    expect((await socket.next("error")).data).not.toHaveProperty("echo_id");
    for (let i = 0; i < FRAME_BUDGET.agent.burst - 2; i++) {
      socket.send({ type: "ping" });
    }
    // Over the budget (it does not refill in tests): refused unsent, named, with a wait.
    socket.send({ type: "message.create", echo_id: "late-1", content: "hello" });
    const late = await socket.next("error");
    expectApiError(late, "rate_limited");
    expect(late.data).toMatchObject({ echo_id: "late-1", retry_after: 1 });
    // Too large to read for its echo_id when refused: answered without one.
    const long = "y".repeat(MAX_ECHO_READ_BYTES);
    socket.send({ type: "message.create", echo_id: "long-1", content: long });
    const unnamed = await socket.next("error");
    expectApiError(unnamed, "rate_limited");
    expect(unnamed.data).not.toHaveProperty("echo_id");
    socket.close();
    // None of the refused frames was stored.
    const res = await api<{ payload: { content: string | null }[] }>(`${base}/messages`, {
      token: agent.token,
    });
    expect(res.status).toBe(200);
    const stored = res.body.payload;
    expect(stored.map((m) => m.content)).not.toContain("hello");
    expect(stored.map((m) => m.content)).not.toContain("hi");
  });
});
