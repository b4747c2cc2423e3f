// "Seen" (the agents' app) and "Read" (the widget) when a message is stored in the second of a
// read: clocks are whole seconds, so the read marks carry the newest seq they cover, and that is
// what tells the message apart. Date is frozen (timers run) so both land in one second every run.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import { api } from "../support/http";
import { openSocket } from "../support/ws";

afterEach(() => {
  vi.useRealTimers();
});

describe("read marks when a message is stored in the second of the read", () => {
  it("the contact's read covers the visitor's message, not the agent's reply stored after it", async () => {
    const w = await createPublicWorld();
    const { conversation, path } = await createPublicConversation(w.base);
    const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`;
    const room = await openSocket(`${base}/live`, { api_access_token: w.admin.token });
    await room.next("ready");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const asked = await pub(`${path}/messages`, { method: "POST", body: { content: "where?" } });
    expect((await pub(`${path}/update_last_seen`, { method: "POST" })).status).toBe(200);
    const read = await room.next("conversation.read");
    expect(read.data).toMatchObject({ by: "contact", seq: asked.body.seq });
    const reply = await api(`${base}/messages`, {
      token: w.admin.token,
      body: { content: "here", message_type: "outgoing" },
    });
    expect(reply.status).toBe(200);
    const record = (await api(base, { token: w.admin.token })).body;
    // Same second: a time comparison would call the reply seen.
    expect(record.contact_last_seen_at).toBe(reply.body.created_at);
    expect(record.contact_last_seen_seq).toBe(asked.body.seq);
    expect(reply.body.seq).toBeGreaterThan(record.contact_last_seen_seq);
    room.close();
  });

  it("the agents' read covers what came before it, not the visitor's message stored after it", async () => {
    const w = await createPublicWorld();
    const { conversation, path } = await createPublicConversation(w.base);
    const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now());
    const first = await pub(`${path}/messages`, { method: "POST", body: { content: "one" } });
    const room = await openSocket(`${base}/live`, { api_access_token: w.admin.token });
    await room.next("ready");
    room.send({ type: "read" });
    expect((await room.next("conversation.read")).data).toMatchObject({
      by: "agent",
      seq: first.body.seq,
    });
    const second = await pub(`${path}/messages`, { method: "POST", body: { content: "two" } });
    const shown = (await pub(path)).body;
    expect(shown.agent_last_seen_at).toBe(second.body.created_at);
    expect(shown.agent_last_seen_seq).toBe(first.body.seq);
    expect(second.body.seq).toBeGreaterThan(shown.agent_last_seen_seq);
    room.close();
  });
});
