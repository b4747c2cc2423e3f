import { describe, expect, it } from "vitest";
import { addInboxMember, createAgent, createInbox } from "../support/factories";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import { api } from "../support/http";
import { openSocket, settle } from "../support/ws";

const feedOf = (accountId: number, token: string) =>
  openSocket(`/api/v1/accounts/${accountId}/live`, { api_access_token: token });

describe("account feed: message.created", () => {
  it("moves the list: the conversation as the message left it, with its preview and unread count", async () => {
    const w = await createPublicWorld();
    const member = await createAgent(w.account.id);
    const outsider = await createAgent(w.account.id);
    await addInboxMember(w.inbox.id, member.id);
    await addInboxMember((await createInbox(w.account.id)).id, outsider.id);
    const { conversation, path } = await createPublicConversation(w.base, { name: "Ada" });
    const feed = await feedOf(w.account.id, member.token);
    const other = await feedOf(w.account.id, outsider.token);
    await feed.next("ready");
    await other.next("ready");

    await pub(`${path}/messages`, { method: "POST", body: { content: "where is my order?" } });
    const incoming = await feed.next("message.created");
    expect(incoming.data).toMatchObject({
      id: conversation.id,
      inbox_id: w.inbox.id,
      status: "open",
      unread_count: 1,
      last_non_activity_message: {
        content: "where is my order?",
        message_type: 0,
        conversation_id: conversation.id,
      },
    });
    expect(incoming.data.last_activity_at).toBeGreaterThan(0);
    expect(incoming.data.updated_at).toBeGreaterThanOrEqual(incoming.data.last_activity_at);

    // A private note reaches the inbox's agents too (they may read it), never anyone else.
    const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`;
    const note = await api(`${base}/messages`, {
      token: w.admin.token,
      body: { content: "check the warehouse", private: true },
    });
    expect(note.status).toBe(200);
    const noted = await feed.next("message.created");
    expect(noted.data.last_non_activity_message).toMatchObject({
      id: note.body.id,
      private: true,
      content: "check the warehouse",
    });
    expect(noted.data.unread_count).toBe(1);
    await settle();
    expect(other.all("message.created")).toHaveLength(0);
    expect(JSON.stringify(other.frames)).not.toContain("warehouse");
    feed.close();
    other.close();
  });

  it("carries a message sent over a room socket, and the unread count once the agent read", async () => {
    const w = await createPublicWorld();
    const { conversation, path } = await createPublicConversation(w.base);
    const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`;
    const feed = await feedOf(w.account.id, w.admin.token);
    await feed.next("ready");
    await pub(`${path}/messages`, { method: "POST", body: { content: "one" } });
    expect((await feed.next("message.created")).data.unread_count).toBe(1);
    expect((await api(`${base}/update_last_seen`, { token: w.admin.token, body: {} })).status).toBe(
      200,
    );
    const room = await openSocket(`${base}/live`, { api_access_token: w.admin.token });
    await room.next("ready");
    room.send({ type: "message.create", echo_id: "e-1", content: "on it" });
    expect((await room.next("ack")).data.echo_id).toBe("e-1");
    const reply = await feed.next("message.created");
    expect(reply.data).toMatchObject({
      id: conversation.id,
      unread_count: 0,
      last_non_activity_message: { content: "on it", message_type: 1, echo_id: "e-1" },
    });
    room.close();
    feed.close();
  });

  it("sends one frame per committed group at most, ending on the newest message", async () => {
    const w = await createPublicWorld();
    const { conversation, path } = await createPublicConversation(w.base);
    const feed = await feedOf(w.account.id, w.admin.token);
    await feed.next("ready");
    const contents = Array.from({ length: 12 }, (_, i) => `burst ${i}`);
    const sent = await Promise.all(
      contents.map((content) => pub(`${path}/messages`, { method: "POST", body: { content } })),
    );
    const newest = Math.max(...sent.map((r) => r.body.id as number));
    // Waits until the newest message's frame came; frames of a group are not sent per message.
    for (;;) {
      const f = await feed.next("message.created");
      expect(f.data.id).toBe(conversation.id);
      if (f.data.last_non_activity_message.id === newest) {
        break;
      }
    }
    await settle();
    const frames = feed.all("message.created");
    expect(frames.length).toBeLessThanOrEqual(contents.length);
    expect(frames.at(-1)?.data.last_non_activity_message.id).toBe(newest);
    expect(frames.at(-1)?.data.unread_count).toBe(contents.length);
    feed.close();
  });
});
