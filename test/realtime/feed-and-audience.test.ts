import { describe, expect, it } from "vitest";
import { addInboxMember, createInbox, createWorld } from "../support/factories";
import { createContact } from "../support/factories-conversations";
import {
  createPublicContact,
  createPublicConversation,
  createPublicWorld,
  pub,
} from "../support/factories-public";
import { api } from "../support/http";
import { openSocket, settle } from "../support/ws";

describe("visitor sockets", () => {
  it("never sends private notes or private typing to the contact", async () => {
    const w = await createPublicWorld();
    const { contact, conversation, path } = await createPublicConversation(w.base);
    const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`;
    const visitor = await openSocket(`/public/api/v1/inboxes/${path}/live`);
    const agent = await openSocket(`${base}/live`, { api_access_token: w.admin.token });
    expect((await visitor.next("ready")).data.role).toBe("contact");
    await api(`${base}/messages`, {
      token: w.admin.token,
      body: { content: "internal only", private: true },
    });
    await api(`${base}/toggle_typing_status`, {
      token: w.admin.token,
      body: { typing_status: "on", is_private: true },
    });
    await api(`${base}/messages`, { token: w.admin.token, body: { content: "public reply" } });
    expect((await agent.next("message.created")).data.content).toBe("internal only");
    expect((await agent.next("message.created")).data.content).toBe("public reply");
    const reply = await visitor.next("message.created");
    expect(reply.data).toMatchObject({ content: "public reply", message_type: 1 });
    expect(reply.data).not.toHaveProperty("private");
    // A change while a note is the latest message tells the contact nothing of the note.
    await api(`${base}/messages`, {
      token: w.admin.token,
      body: { content: "internal only, again", private: true },
    });
    await api(`${base}/toggle_status`, { token: w.admin.token, body: { status: "resolved" } });
    expect((await visitor.next("conversation.status_changed")).data).toEqual({
      id: conversation.id,
      uuid: conversation.uuid,
      status: "resolved",
      snoozed_until: null,
    });
    await settle();
    expect(JSON.stringify(visitor.frames)).not.toContain("internal only");
    expect(visitor.all("typing.on")).toHaveLength(0);
    // Resume never replays the note either, and the pubsub_token route reaches the same room.
    const again = await openSocket(
      `/public/api/v1/live?pubsub_token=${contact.pubsub_token}&conversation_id=${conversation.id}&after=0`,
    );
    expect((await again.next("message.created")).data.content).toBe("public reply");
    await settle();
    expect(JSON.stringify(again.frames)).not.toContain("internal only");
    for (const s of [visitor, agent, again]) {
      s.close();
    }
  });

  it("sees a visitor's messages and typing on the agent side, live", async () => {
    const w = await createPublicWorld();
    const { conversation, path } = await createPublicConversation(w.base, { name: "Ada" });
    const agent = await openSocket(
      `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}/live`,
      {
        api_access_token: w.admin.token,
      },
    );
    await pub(`${path}/toggle_typing`, { method: "POST", body: { typing_status: "on" } });
    expect((await agent.next("typing.on")).data.typer).toMatchObject({
      type: "contact",
      name: "Ada",
    });
    await pub(`${path}/messages`, { method: "POST", body: { content: "hi there" } });
    expect((await agent.next("message.created")).data).toMatchObject({
      content: "hi there",
      message_type: 0,
      sender_type: "Contact",
    });
    agent.close();
  });

  it("keeps a contact out of other contacts' conversations", async () => {
    const w = await createPublicWorld();
    const first = await createPublicConversation(w.base);
    const second = await createPublicContact(w.base);
    const foreign = `/public/api/v1/inboxes/${w.base}/contacts/${second.source_id}/conversations/${first.conversation.id}/live`;
    await expect(openSocket(foreign)).rejects.toThrow(/404/);
    await expect(
      openSocket(
        `/public/api/v1/live?pubsub_token=${second.pubsub_token}&conversation_id=${first.conversation.id}`,
      ),
    ).rejects.toThrow(/404/);
    await expect(
      openSocket(`/public/api/v1/live?pubsub_token=nope&conversation_id=${first.conversation.id}`),
    ).rejects.toThrow(/401/);
    await expect(
      openSocket(`/public/api/v1/inboxes/${first.path}/live?pubsub_token=${second.pubsub_token}`),
    ).rejects.toThrow(/401/);
    const other = await createPublicWorld();
    await expect(
      openSocket(
        `/public/api/v1/inboxes/${other.base}/contacts/${first.contact.source_id}/conversations/${first.conversation.id}/live`,
      ),
    ).rejects.toThrow(/404/);
  });
});

describe("account feed", () => {
  it("tells an agent about conversations of their inboxes only", async () => {
    const w = await createWorld();
    await addInboxMember(w.inbox.id, w.agent.id);
    const hidden = await createInbox(w.account.id);
    const feed = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
      api_access_token: w.agent.token,
    });
    const adminFeed = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
      api_access_token: w.admin.token,
    });
    await feed.next("ready");
    const create = (inboxId: number) =>
      createContact(w.account.id).then((c) =>
        api(`/api/v1/accounts/${w.account.id}/conversations`, {
          token: w.admin.token,
          body: { inbox_id: inboxId, contact_id: c.id },
        }),
      );
    const hiddenOne = await create(hidden.id);
    const visible = await create(w.inbox.id);
    expect(hiddenOne.status).toBe(200);
    const created = await feed.next("conversation.created");
    expect(created.data).toMatchObject({ id: visible.body.id, inbox_id: w.inbox.id });
    await api(`/api/v1/accounts/${w.account.id}/conversations/${visible.body.id}/toggle_status`, {
      token: w.admin.token,
      body: { status: "resolved" },
    });
    expect((await feed.next("conversation.status_changed")).data).toMatchObject({
      status: "resolved",
    });
    await settle();
    expect(feed.all("conversation.created").map((f) => f.data.id)).toEqual([visible.body.id]);
    expect((await adminFeed.next("conversation.created")).data.id).toBe(hiddenOne.body.id);
    expect((await adminFeed.next("conversation.created")).data.id).toBe(visible.body.id);
    feed.close();
    adminFeed.close();
  });

  it("refuses bots and bad tokens", async () => {
    const w = await createWorld();
    await expect(
      openSocket(`/api/v1/accounts/${w.account.id}/live`, { api_access_token: w.bot.token }),
    ).rejects.toThrow(/401/);
    await expect(
      openSocket(`/api/v1/accounts/${w.account.id}/live`, { api_access_token: "x" }),
    ).rejects.toThrow(/401/);
  });
});
