import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { addInboxMember, createInbox, createWorld, db } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import {
  conversationByUuid,
  createPublicConversation,
  createPublicWorld,
} from "../support/factories-public";
import { api } from "../support/http";
import { tryToSend } from "../support/revocation";
import { answer, stored, untilStored } from "../support/room-log";
import { type LiveSocket, openSocket } from "../support/ws";

/** A conversation with an admin and an inbox agent, and sockets into its room. */
async function setup() {
  const world = await createWorld();
  await addInboxMember(world.inbox.id, world.agent.id);
  const { conversation } = await createConversationIn(world.account.id, world.inbox.id);
  const base = `/api/v1/accounts/${world.account.id}/conversations/${conversation.displayId}`;
  const live = async (token: string) => {
    const socket = await openSocket(`${base}/live?batch=1`, { api_access_token: token });
    await socket.next("ready");
    return socket;
  };
  return { ...world, conversation, base, live };
}

const create = (socket: LiveSocket, echo: string, content = echo) =>
  socket.send({ type: "message.create", echo_id: echo, content });

describe("group commit of socket messages", () => {
  it("stores concurrent sends from several sockets once each, in seq order, acked with their id and seq", async () => {
    const s = await setup();
    const senders = await Promise.all([s.live(s.admin.token), s.live(s.agent.token)]);
    const watcher = await s.live(s.admin.token);
    const echoes = senders.map((_, n) => Array.from({ length: 15 }, (_, i) => `s${n}-${i}`));
    echoes.forEach((list, n) => {
      for (const echo of list) {
        create(senders[n] as LiveSocket, echo);
      }
    });
    const acks = await Promise.all(
      echoes.flatMap((list, n) => list.map((echo) => answer(senders[n] as LiveSocket, echo))),
    );
    expect(acks.every((a) => a.event === "ack" && a.data.duplicate === false)).toBe(true);
    const rows = await untilStored(s.conversation.id, 30);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const byEcho = new Map(rows.map((r) => [r.echoId, r]));
    for (const ack of acks) {
      const row = byEcho.get(ack.data.echo_id);
      expect([ack.data.id, ack.data.seq]).toEqual([row?.id, row?.seq]);
    }
    // Each sender's own messages keep the order it sent them in.
    for (const list of echoes) {
      const seqs = list.map((e) => byEcho.get(e)?.seq ?? 0);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
    for (let i = 0; i < 30; i++) {
      await watcher.next("message.created");
    }
    expect(watcher.all("message.created").map((f) => f.data.seq)).toEqual(rows.map((r) => r.seq));
    for (const socket of [...senders, watcher]) {
      socket.close();
    }
  });

  it("answers retries of a stored echo_id inside a group as duplicates, storing the rest", async () => {
    const s = await setup();
    const agent = await s.live(s.agent.token);
    create(agent, "first");
    const original = await answer(agent, "first");
    agent.frames.length = 0;
    // The retries land in groups with new messages: each answers the stored message.
    for (let i = 0; i < 6; i++) {
      create(agent, `new-${i}`);
      create(agent, "first");
    }
    const fresh = await Promise.all(Array.from({ length: 6 }, (_, i) => answer(agent, `new-${i}`)));
    // Up to 15 s: a margin for a loaded machine (it only delays a failure).
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
      if (agent.all("ack").length >= 12) {
        break;
      }
      await new Promise((r) => setTimeout(r, 30));
    }
    const retries = agent.all("ack").filter((a) => a.data.echo_id === "first");
    expect(retries).toHaveLength(6);
    expect(retries.every((r) => r.data.duplicate && r.data.id === original.data.id)).toBe(true);
    expect(fresh.every((a) => a.event === "ack" && !a.data.duplicate)).toBe(true);
    const rows = await untilStored(s.conversation.id, 7);
    expect(rows.map((r) => r.echoId)).toEqual(["first", ...fresh.map((a) => a.data.echo_id)]);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    agent.close();
  });

  it("refuses the message of an agent removed from the inbox inside a group; the others persist", async () => {
    const s = await setup();
    const [admin, agent] = await Promise.all([s.live(s.admin.token), s.live(s.agent.token)]);
    // Both callers and the conversation row are now cached by the room.
    create(agent, "before");
    create(admin, "admin-0");
    expect((await answer(agent, "before")).event).toBe("ack");
    expect((await answer(admin, "admin-0")).event).toBe("ack");
    for (let i = 1; i <= 5; i++) {
      create(admin, `admin-${i}`);
    }
    // Removed through the API: the room hears of it (a revocation) before the answer leaves,
    // with the admin's burst still being committed.
    const removed = await api(`/api/v1/accounts/${s.account.id}/inbox_members`, {
      method: "DELETE",
      token: s.admin.token,
      body: { inbox_id: s.inbox.id, user_ids: [s.agent.id] },
    });
    expect(removed.status).toBe(200);
    const sent = tryToSend(agent);
    for (let i = 6; i <= 10; i++) {
      create(admin, `admin-${i}`);
    }
    expect((await agent.closed).code).toBe(4403);
    const acks = await Promise.all(
      Array.from({ length: 10 }, (_, i) => answer(admin, `admin-${i + 1}`)),
    );
    expect(acks.every((a) => a.event === "ack")).toBe(true);
    expect(agent.frames.some((f) => f.data?.echo_id === sent)).toBe(false);
    const rows = await untilStored(s.conversation.id, 12);
    expect(rows.map((r) => r.echoId)).not.toContain(sent);
    expect(rows).toHaveLength(12);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    admin.close();
  });

  it("refuses messages once the conversation moved to another inbox and the room heard of a change", async () => {
    const s = await setup();
    const admin = await s.live(s.admin.token);
    create(admin, "here");
    expect((await answer(admin, "here")).event).toBe("ack");
    const other = await createInbox(s.account.id);
    // No API moves a conversation; moved in D1, the room learns the row with the next change
    // that passes through it (here a status change), or within a minute (its callers' cache).
    await db()
      .update(t.conversations)
      .set({ inboxId: other.id })
      .where(eq(t.conversations.id, s.conversation.id));
    const resolved = await api(`${s.base}/toggle_status`, {
      token: s.admin.token,
      body: { status: "resolved" },
    });
    expect(resolved.status).toBe(200);
    create(admin, "moved");
    expect((await answer(admin, "moved")).data).toMatchObject({ code: "not_found", status: 404 });
    // The resolve's activity note has no echo_id.
    const sent = (await stored(s.conversation.id)).filter((r) => r.echoId !== null);
    expect(sent.map((r) => r.echoId)).toEqual(["here"]);
    admin.close();
  });

  it("keeps one order for HTTP posts and socket sends mixed", async () => {
    const s = await setup();
    const sender = await s.live(s.agent.token);
    const watcher = await s.live(s.admin.token);
    const posts: Promise<{ body: { id: number; seq?: number } }>[] = [];
    for (let i = 0; i < 10; i++) {
      create(sender, `sock-${i}`);
      posts.push(
        api(`${s.base}/messages`, { token: s.admin.token, body: { content: `http-${i}` } }),
      );
    }
    const responses = await Promise.all(posts);
    const acks = await Promise.all(
      Array.from({ length: 10 }, (_, i) => answer(sender, `sock-${i}`)),
    );
    const rows = await untilStored(s.conversation.id, 20);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const ids = new Set(rows.map((r) => r.id));
    expect(responses.every((r) => ids.has(r.body.id))).toBe(true);
    expect(acks.every((a) => ids.has(a.data.id))).toBe(true);
    for (let i = 0; i < 20; i++) {
      await watcher.next("message.created");
    }
    expect(watcher.all("message.created").map((f) => f.data.id)).toEqual(rows.map((r) => r.id));
    sender.close();
    watcher.close();
  });

  it("reads the conversation again after a change published through the room (a resolve, then a visitor reopens it)", async () => {
    const w = await createPublicWorld();
    const { conversation, path } = await createPublicConversation(w.base);
    const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`;
    const visitor = await openSocket(`/public/api/v1/inboxes/${path}/live`);
    await visitor.next("ready");
    create(visitor, "v-1");
    expect((await answer(visitor, "v-1")).event).toBe("ack");
    // The room now holds the row as open; resolving it goes through the room as an event.
    const resolved = await api(`${base}/toggle_status`, {
      token: w.admin.token,
      body: { status: "resolved" },
    });
    expect(resolved.status).toBe(200);
    await visitor.next("conversation.status_changed");
    create(visitor, "v-2");
    expect((await answer(visitor, "v-2")).event).toBe("ack");
    const reopened = await visitor.next("conversation.status_changed");
    expect(reopened.data.status).toBe("open");
    expect((await conversationByUuid(conversation.uuid))?.status).toBe("open");
    visitor.close();
  });
});
