// Unread counts and a read in the same second: the API's clocks are whole seconds, so "created
// after the agents last saw the conversation" cannot be told by time alone. The clock is frozen
// (Date only; timers run) so both happen in one second on every run, however fast the machine.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import { api } from "../support/http";
import { openSocket } from "../support/ws";

afterEach(() => {
  vi.useRealTimers();
});

describe("unread_count when a message comes in the second the agents read", () => {
  it("counts a visitor's message stored after the read as unread (feed frame and record)", async () => {
    const w = await createPublicWorld();
    const { conversation, path } = await createPublicConversation(w.base);
    const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`;
    const feed = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
      api_access_token: w.admin.token,
    });
    await feed.next("ready");
    await pub(`${path}/messages`, { method: "POST", body: { content: "one" } });
    expect((await feed.next("message.created")).data.unread_count).toBe(1);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const read = await api(`${base}/update_last_seen`, { token: w.admin.token, body: {} });
    expect(read.status).toBe(200);
    expect((await api(base, { token: w.admin.token })).body.unread_count).toBe(0);

    await pub(`${path}/messages`, { method: "POST", body: { content: "two" } });
    const frame = await feed.next("message.created");
    expect(frame.data.last_non_activity_message.content).toBe("two");
    expect(frame.data.unread_count).toBe(1);
    const show = await api(base, { token: w.admin.token });
    expect(show.body.unread_count).toBe(1);
    // The API's field stays whole seconds.
    expect(show.body.agent_last_seen_at).toBe(Math.floor(Date.now() / 1000));
    const list = await api(`/api/v1/accounts/${w.account.id}/conversations?status=all`, {
      token: w.admin.token,
    });
    const listed = list.body.data.payload.find((c: { id: number }) => c.id === conversation.id);
    expect(listed.unread_count).toBe(1);
    feed.close();
  });

  it("does the same for a read sent on the room socket, and still counts what came before it as read", async () => {
    const w = await createPublicWorld();
    const { conversation, path } = await createPublicConversation(w.base);
    const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    await pub(`${path}/messages`, { method: "POST", body: { content: "before the read" } });
    const room = await openSocket(`${base}/live`, { api_access_token: w.admin.token });
    await room.next("ready");
    room.send({ type: "read" });
    expect((await room.next("conversation.read")).data.by).toBe("agent");
    expect((await api(base, { token: w.admin.token })).body.unread_count).toBe(0);
    await pub(`${path}/messages`, { method: "POST", body: { content: "after the read" } });
    expect((await room.next("message.created")).data.content).toBe("after the read");
    expect((await api(base, { token: w.admin.token })).body.unread_count).toBe(1);
    room.close();
  });
});
