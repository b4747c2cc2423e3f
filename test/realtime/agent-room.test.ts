import { env, evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FRAME_BUDGET } from "../../worker/realtime/protocol";
import { addInboxMember, createAgent, createWorld } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { api, expectError } from "../support/http";
import { openSocket, settle } from "../support/ws";

async function setup() {
  const world = await createWorld();
  await addInboxMember(world.inbox.id, world.agent.id);
  const { conversation, contact } = await createConversationIn(world.account.id, world.inbox.id);
  const base = `/api/v1/accounts/${world.account.id}/conversations/${conversation.displayId}`;
  const live = (token: string, after?: number) =>
    openSocket(`${base}/live${after === undefined ? "" : `?after=${after}`}`, {
      api_access_token: token,
    });
  const post = (token: string, body: unknown) => api(`${base}/messages`, { token, body });
  return { ...world, conversation, contact, base, live, post };
}

describe("agent room socket", () => {
  it("greets with ready and delivers a reply posted over HTTP", async () => {
    const s = await setup();
    const socket = await s.live(s.agent.token);
    const ready = await socket.next("ready");
    expect(ready).toMatchObject({ v: 1, data: { role: "agent" } });
    const res = await s.post(s.admin.token, { content: "hello from HTTP" });
    const frame = await socket.next("message.created");
    expect(frame.v).toBe(1);
    expect(frame.seq).toBe(ready.seq + 1);
    expect(frame.data).toMatchObject({
      id: res.body.id,
      content: "hello from HTTP",
      seq: 1,
      sender: { id: s.admin.id },
    });
    socket.close();
  });

  it("keeps one order for everyone under concurrent senders", async () => {
    const s = await setup();
    const sockets = await Promise.all([
      s.live(s.agent.token),
      s.live(s.admin.token),
      s.live(s.agent.token),
    ]);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.post(i % 2 ? s.agent.token : s.admin.token, { content: `m${i}` }),
      ),
    );
    for (const socket of sockets) {
      for (let i = 0; i < 20; i++) {
        await socket.next("message.created");
      }
      const frames = socket.all("message.created");
      expect(frames.map((f) => f.data.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const seqs = frames.map((f) => f.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
    const orders = sockets.map((socket) =>
      socket
        .all("message.created")
        .map((f) => f.data.id)
        .join(","),
    );
    expect(new Set(orders).size).toBe(1);
    for (const socket of sockets) {
      socket.close();
    }
  });

  it("replays exactly what a reconnecting client missed, in order, without duplicates", async () => {
    const s = await setup();
    const first = await s.live(s.agent.token);
    await s.post(s.admin.token, { content: "seen" });
    const seen = await first.next("message.created");
    first.close();
    for (const content of ["missed 1", "missed 2", "missed 3"]) {
      await s.post(s.admin.token, { content });
    }
    const again = await s.live(s.agent.token, seen.seq);
    const replayed = [
      await again.next("message.created"),
      await again.next("message.created"),
      await again.next("message.created"),
    ];
    expect(replayed.map((f) => f.data.content)).toEqual(["missed 1", "missed 2", "missed 3"]);
    await s.post(s.admin.token, { content: "live" });
    expect((await again.next("message.created")).data.content).toBe("live");
    await settle();
    expect(again.all("message.created").map((f) => f.data.content)).toEqual([
      "missed 1",
      "missed 2",
      "missed 3",
      "live",
    ]);
    // The same through a resume frame on an open socket.
    const third = await s.live(s.agent.token);
    third.send({ type: "resume", after: seen.seq });
    expect((await third.next("message.created")).data.content).toBe("missed 1");
    again.close();
    third.close();
  });

  it("relays typing and clears it by itself", async () => {
    const s = await setup();
    const watcher = await s.live(s.admin.token);
    const typist = await s.live(s.agent.token);
    typist.send({ type: "typing", on: true });
    const on = await watcher.next("typing.on");
    expect(on.data).toMatchObject({ typer: { type: "user", id: s.agent.id }, is_private: false });
    await typist.next("typing.on");
    const off = await watcher.next("typing.off");
    expect(off.data.typer.id).toBe(s.agent.id);
    const http = await api(`${s.base}/toggle_typing_status`, {
      token: s.admin.token,
      body: { typing_status: "on", is_private: true },
    });
    expect(http.status).toBe(200);
    expect((await typist.next("typing.on")).data).toMatchObject({
      typer: { id: s.admin.id },
      is_private: true,
    });
    watcher.close();
    typist.close();
  });

  it("keeps its sockets and their identity across hibernation", async () => {
    const s = await setup();
    const socket = await s.live(s.agent.token);
    await socket.next("ready");
    const stub = env.ROOMS.get(env.ROOMS.idFromName(`${s.account.id}:${s.conversation.id}`));
    await evictDurableObject(stub);
    await s.post(s.admin.token, { content: "after hibernation" });
    const frame = await socket.next("message.created");
    expect(frame.data).toMatchObject({ content: "after hibernation", seq: 1 });
    socket.send({ type: "typing", on: true });
    const second = await s.live(s.admin.token);
    expect((await second.next("typing.on")).data.typer).toMatchObject({
      id: s.agent.id,
      type: "user",
    });
    socket.close();
    second.close();
  });

  it("answers bad frames with an error frame and keeps the socket", async () => {
    const s = await setup();
    const socket = await s.live(s.agent.token);
    socket.send("not json");
    expect((await socket.next("error")).data.code).toBe("bad_frame");
    socket.send({ type: "typing" });
    expect((await socket.next("error")).data.code).toBe("bad_frame");
    socket.send(JSON.stringify({ type: "ping", pad: "x".repeat(5000) }));
    expect((await socket.next("error")).data.code).toBe("frame_too_large");
    socket.send({ type: "ping" });
    await socket.next("pong");
    // Agents work at machine speed: their budget is a burst of 200 frames. It does not refill
    // in tests (FRAME_REFILL_PER_SECOND=0), so the verdict never depends on the machine's speed.
    for (let i = 0; i < FRAME_BUDGET.agent.burst + 10; i++) {
      socket.send({ type: "ping" });
    }
    expect((await socket.next("error")).data.code).toBe("rate_limited");
    socket.close();
  });

  it("sends status and assignee changes as frames", async () => {
    const s = await setup();
    const socket = await s.live(s.agent.token);
    await api(`${s.base}/toggle_status`, { token: s.admin.token, body: { status: "resolved" } });
    expect((await socket.next("conversation.status_changed")).data).toMatchObject({
      status: "resolved",
      previous_status: "open",
    });
    await api(`${s.base}/assignments`, { token: s.admin.token, body: { assignee_id: s.agent.id } });
    expect((await socket.next("conversation.assignee_changed")).data).toMatchObject({
      assignee: { id: s.agent.id },
    });
    socket.close();
  });
});

describe("who may open a room", () => {
  it("refuses agents outside the inbox, other accounts, bad tokens and plain GETs", async () => {
    const s = await setup();
    const outsider = await createAgent(s.account.id);
    await expect(s.live(outsider.token)).rejects.toThrow(/expected 101, got 404/);
    const other = await createWorld();
    await expect(
      openSocket(
        `/api/v1/accounts/${other.account.id}/conversations/${s.conversation.displayId}/live`,
        { api_access_token: other.admin.token },
      ),
    ).rejects.toThrow(/404/);
    await expect(s.live("nope")).rejects.toThrow(/401/);
    await expect(openSocket(`${s.base}/live`)).rejects.toThrow(/401/);
    expectError(await api(`${s.base}/live`, { token: s.agent.token }), 400);
  });

  it("takes the token from the query string on upgrades only", async () => {
    const s = await setup();
    const socket = await openSocket(`${s.base}/live?api_access_token=${s.agent.token}`);
    await socket.next("ready");
    socket.close();
    expectError(await api(`${s.base}/messages?api_access_token=${s.agent.token}`), 401);
  });
});
