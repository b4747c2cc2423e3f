import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { db } from "../support/factories";
import { createPublicConversationRow, createPublicWorld, pub } from "../support/factories-public";
import { api } from "../support/http";
import { inOneWindow } from "../support/rate-window";
import { type Frame, openSocket, settle } from "../support/ws";

/** A visitor's conversation in an API inbox, its agents' room, and both sockets' paths. */
async function setup() {
  const w = await createPublicWorld();
  const { contact, conversation, path, row } = await createPublicConversationRow(w.base);
  const base = `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`;
  const visitorPath = `/public/api/v1/inboxes/${path}/live`;
  return { ...w, contact, conversation, row, path, base, visitorPath };
}

const storedMessages = (conversationId: number) =>
  db().select().from(t.messages).where(eq(t.messages.conversationId, conversationId)).all();

const seqsOf = (frames: Frame[]) => frames.map((f) => f.seq);

describe("sending over the socket", () => {
  it("stores a visitor's message once, acks it, and the agents see it", async () => {
    const s = await setup();
    const visitor = await openSocket(s.visitorPath);
    const agent = await openSocket(`${s.base}/live`, { api_access_token: s.admin.token });
    await visitor.next("ready");
    await agent.next("ready");

    visitor.send({ type: "message.create", echo_id: "e-1", content: "hello over the socket" });
    const ack = await visitor.next("ack");
    expect(ack.data).toMatchObject({ echo_id: "e-1", duplicate: false, seq: 1 });
    const seen = await agent.next("message.created");
    expect(seen.data).toMatchObject({
      id: ack.data.id,
      content: "hello over the socket",
      message_type: 0,
      echo_id: "e-1",
    });
    // Retries of the same echo_id, over the socket and over HTTP, find the same message.
    visitor.send({ type: "message.create", echo_id: "e-1", content: "hello over the socket" });
    visitor.send({ type: "message.create", echo_id: "e-1", content: "hello over the socket" });
    const retries = [await visitor.next("ack"), await visitor.next("ack")];
    expect(retries.map((r) => [r.data.id, r.data.duplicate])).toEqual([
      [ack.data.id, true],
      [ack.data.id, true],
    ]);
    const http = await pub(`${s.path}/messages`, {
      method: "POST",
      body: { content: "hello over the socket", echo_id: "e-1" },
    });
    expect(http.body.id).toBe(ack.data.id);
    expect(await storedMessages(s.row.id)).toHaveLength(1);
    const listed = await api(`${s.base}/messages`, { token: s.admin.token });
    expect(listed.body.payload.map((m: { id: number }) => m.id)).toEqual([ack.data.id]);
    visitor.close();
    agent.close();
  });

  it("lets an agent send a private note that never reaches the visitor", async () => {
    const s = await setup();
    const visitor = await openSocket(s.visitorPath);
    const agent = await openSocket(`${s.base}/live`, { api_access_token: s.admin.token });
    await visitor.next("ready");
    agent.send({ type: "message.create", echo_id: "n-1", content: "internal", private: true });
    const ack = await agent.next("ack");
    expect((await agent.next("message.created")).data).toMatchObject({
      id: ack.data.id,
      private: true,
      sender: { id: s.admin.id },
    });
    agent.send({ type: "message.create", echo_id: "r-1", content: "public reply" });
    await agent.next("ack");
    expect((await visitor.next("message.created")).data.content).toBe("public reply");
    await settle();
    expect(visitor.all("message.created").map((f) => f.data.content)).toEqual(["public reply"]);
    expect(JSON.stringify(visitor.frames)).not.toContain("internal");
    visitor.close();
    agent.close();
  });

  it("answers invalid messages with the API's 422 as an error frame, storing nothing", async () => {
    const s = await setup();
    const visitor = await openSocket(s.visitorPath);
    const agent = await openSocket(`${s.base}/live`, { api_access_token: s.admin.token });
    await visitor.next("ready");
    await agent.next("ready");
    visitor.send({ type: "message.create", echo_id: "b-1", content: "   " });
    expect((await visitor.next("error")).data).toMatchObject({
      code: "validation_failed",
      status: 422,
      echo_id: "b-1",
      details: [{ path: "content" }],
    });
    visitor.send({ type: "message.create", echo_id: "b-2", content: "x".repeat(150_001) });
    expect((await visitor.next("error")).data).toMatchObject({ status: 422, echo_id: "b-2" });
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) {
      deep = { a: deep };
    }
    agent.send({ type: "message.create", echo_id: "b-3", content: "x", content_attributes: deep });
    expect((await agent.next("error")).data).toMatchObject({ status: 422, echo_id: "b-3" });
    agent.send({ type: "message.create", echo_id: "b-4", content: 5 });
    expect((await agent.next("error")).data).toMatchObject({ status: 422, echo_id: "b-4" });
    agent.send({ type: "message.create", content: "no echo id" });
    expect((await agent.next("error")).data.code).toBe("bad_frame");
    expect(await storedMessages(s.row.id)).toHaveLength(0);
    visitor.close();
    agent.close();
  });

  it("refuses an agent who lost access after connecting, storing nothing", async () => {
    const s = await setup();
    const agent = await openSocket(`${s.base}/live`, { api_access_token: s.admin.token });
    await agent.next("ready");
    await db().delete(t.accountUsers).where(eq(t.accountUsers.userId, s.admin.id));
    agent.send({ type: "message.create", echo_id: "gone-1", content: "still here?" });
    expect((await agent.next("error")).data).toMatchObject({
      code: "not_found",
      status: 404,
      echo_id: "gone-1",
    });
    expect(await storedMessages(s.row.id)).toHaveLength(0);
    agent.close();
  });

  it("counts a visitor's socket messages against the public API's message limit", async () => {
    await inOneWindow(15, async () => {
      const s = await setup();
      const visitor = await openSocket(s.visitorPath);
      await visitor.next("ready");
      // Fill this contact's window over HTTP (30 messages a minute), then send over the socket.
      let limited = false;
      for (let i = 0; i < 40 && !limited; i++) {
        const res = await pub(`${s.path}/messages`, { method: "POST", body: { content: `m${i}` } });
        limited = res.status === 429;
      }
      expect(limited).toBe(true);
      const before = (await storedMessages(s.row.id)).length;
      visitor.send({ type: "message.create", echo_id: "over-1", content: "one too many" });
      const err = await visitor.next("error");
      expect(err.data).toMatchObject({ code: "rate_limited", status: 429, echo_id: "over-1" });
      expect(err.data.retry_after).toBeGreaterThan(0);
      expect(await storedMessages(s.row.id)).toHaveLength(before);
      visitor.close();
    });
  }, 240_000);

  it("marks the conversation read for the side that sends a read frame", async () => {
    const s = await setup();
    const visitor = await openSocket(s.visitorPath);
    const agent = await openSocket(`${s.base}/live`, { api_access_token: s.admin.token });
    await visitor.next("ready");
    visitor.send({ type: "read" });
    expect((await agent.next("conversation.read")).data).toMatchObject({ by: "contact" });
    expect((await visitor.next("conversation.read")).data).toMatchObject({ by: "contact" });
    agent.send({ type: "read" });
    expect((await visitor.next("conversation.read")).data).toMatchObject({ by: "agent" });
    const row = db().select().from(t.conversations).where(eq(t.conversations.id, s.row.id));
    const stored = await row.get();
    expect(stored?.contactLastSeenAt).toBeGreaterThan(0);
    expect(stored?.agentLastSeenAt).toBeGreaterThan(0);
    visitor.close();
    agent.close();
  });
});

describe("batched frames", () => {
  it("sends what is ready together as one array in seq order, only to clients that opted in", async () => {
    const s = await setup();
    const batching = await openSocket(`${s.base}/live?batch=1`, {
      api_access_token: s.admin.token,
    });
    const single = await openSocket(`${s.base}/live`, { api_access_token: s.admin.token });
    const visitor = await openSocket(`${s.visitorPath}?batch=1`);
    await Promise.all([batching.next("ready"), single.next("ready"), visitor.next("ready")]);

    // Concurrent posts are committed in groups, and a group's frames leave in one turn.
    const posts = Array.from({ length: 40 }, (_, i) =>
      api(`${s.base}/messages`, {
        token: s.admin.token,
        body: { content: `m${i}`, private: i % 3 === 0 },
      }),
    );
    await Promise.all(posts);
    const created = async (socket: typeof single, n: number) => {
      for (let i = 0; i < n; i++) {
        await socket.next("message.created");
      }
      return socket.all("message.created");
    };
    const viaBatch = await created(batching, 40);
    const viaSingle = await created(single, 40);
    const publicCount = Array.from({ length: 40 }, (_, i) => i % 3 !== 0).filter(Boolean).length;
    const forVisitor = await created(visitor, publicCount);

    expect(batching.batches.length).toBeGreaterThan(0);
    expect(batching.batches.some((b) => b.length > 1)).toBe(true);
    expect(single.batches).toEqual([]);
    for (const frames of [viaBatch, viaSingle, forVisitor]) {
      const seqs = seqsOf(frames);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
    expect(seqsOf(viaBatch)).toEqual(seqsOf(viaSingle));
    // The visitor's batches never carry a private note.
    expect(forVisitor.every((f) => f.data.private !== true)).toBe(true);
    expect(
      visitor.batches.flat().every((f) => f.event !== "message.created" || !f.data.private),
    ).toBe(true);
    await settle();
    expect(visitor.all("message.created")).toHaveLength(publicCount);
    for (const socket of [batching, single, visitor]) {
      socket.close();
    }
  });
});
