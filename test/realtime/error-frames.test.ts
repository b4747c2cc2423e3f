import { describe, expect, it } from "vitest";
import { errorStatus } from "../../worker/lib/errors";
import { FRAME_BUDGET } from "../../worker/realtime/protocol";
import { addInboxMember, createWorld } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { openSocket } from "../support/ws";

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
    const world = await createWorld();
    await addInboxMember(world.inbox.id, world.agent.id);
    const { conversation } = await createConversationIn(world.account.id, world.inbox.id);
    const socket = await openSocket(
      `/api/v1/accounts/${world.account.id}/conversations/${conversation.displayId}/live`,
      { api_access_token: world.agent.token },
    );
    await socket.next("ready");
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
});
