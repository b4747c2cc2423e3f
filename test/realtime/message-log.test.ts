import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api } from "../support/http";
import {
  agentInRoom,
  failInserts,
  outboxOf,
  roomOf,
  stored,
  untilLogTrimmed,
  untilStored,
} from "../support/room-log";
import type { Frame, LiveSocket } from "../support/ws";

const setup = agentInRoom;

async function sendAll(socket: LiveSocket, contents: string[]): Promise<Frame[]> {
  contents.forEach((content, i) => {
    socket.send({ type: "message.create", echo_id: `e${i}`, content });
  });
  const acks: Frame[] = [];
  for (const _ of contents) {
    acks.push(await socket.next("ack", 15_000));
  }
  return acks;
}

/**
 * The room's write-ahead log (docs/realtime.md, "Write path"): a socket message is acked once the
 * room committed it in its own storage; D1 gets it behind, in order, once, with its outbox row.
 */
describe("the room's message log", () => {
  it("acks while D1 fails mid-batch, keeps the log, and writes it once in order after", async () => {
    const s = await setup();
    const marker = `boom${s.conversation.id}`;
    const heal = await failInserts(marker);
    const contents = ["one", "two", `${marker} three`, "four", "five"];
    const acks = await sendAll(s.socket, contents);
    expect(acks.map((a) => a.data.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(acks.every((a) => a.event === "ack" && !a.data.duplicate)).toBe(true);
    // The batch holding the failing message was refused whole: it is not in D1, nor after it.
    const before = await stored(s.conversation.id);
    expect(before.map((r) => r.content)).not.toContain(`${marker} three`);
    expect(before.length).toBeLessThan(3);
    await heal();
    const rows = await untilStored(s.conversation.id, 5);
    expect(rows.map((r) => [r.id, r.seq])).toEqual(acks.map((a) => [a.data.id, a.data.seq]));
    expect(rows.map((r) => r.content)).toEqual(contents);
    expect(await outboxOf(s.conversation.id)).toEqual(acks.map((a) => a.data.id));
    s.socket.close();
  });

  it("sets aside a message D1 keeps refusing, records why, tells the room, and writes the rest", {
    timeout: 90_000,
  }, async () => {
    const s = await setup();
    const marker = `poison${s.conversation.id}`;
    const heal = await failInserts(marker);
    const contents = ["one", `${marker} two`, "three"];
    const acks = await sendAll(s.socket, contents);
    const room = roomOf(s.account.id, s.conversation.id);
    // Each alarm is one more attempt: the room backs off between them, the test does not wait.
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      if ((await stored(s.conversation.id)).length >= 2) {
        break;
      }
      if (!(await runDurableObjectAlarm(room))) {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const [one, two, three] = acks.map((a) => a.data);
    const rows = await stored(s.conversation.id);
    expect(rows.map((r) => [r.content, r.id, r.seq])).toEqual([
      ["one", one.id, 1],
      ["three", three.id, 3],
    ]);
    expect(await outboxOf(s.conversation.id)).toEqual([one.id, three.id]);
    await untilLogTrimmed(room);
    const record = await runInDurableObject(room, (_r, state) => ({
      aside: state.storage.sql.exec("SELECT id, seq, reason FROM message_set_aside").toArray(),
      logged: state.storage.sql.exec("SELECT count(*) AS n FROM message_log").one().n,
    }));
    expect(record.logged).toBe(0);
    expect(record.aside).toEqual([
      { id: two.id, seq: 2, reason: expect.stringContaining("injected D1 failure") },
    ]);
    expect((await s.socket.next("message.rejected")).data).toEqual({
      id: two.id,
      seq: 2,
      echo_id: "e1",
    });
    await heal();
    s.socket.close();
  });

  it("marks more than 100 relayed outbox rows as sent with its next writes (D1 binds 100 values a statement)", {
    timeout: 90_000,
  }, async () => {
    const s = await setup();
    const marker = `many${s.conversation.id}`;
    const heal = await failInserts(marker);
    // Held back by the failing first message, 130 messages reach D1 together once it heals.
    const contents = [`${marker} 0`, ...Array.from({ length: 129 }, (_, i) => `m${i + 1}`)];
    await sendAll(s.socket, contents);
    await heal();
    const room = roomOf(s.account.id, s.conversation.id);
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      if ((await stored(s.conversation.id)).length >= 130) {
        break;
      }
      if (!(await runDurableObjectAlarm(room))) {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    // The next message carries the marks; then none of the rows is left unmarked.
    s.socket.send({ type: "message.create", echo_id: "after", content: "after" });
    await untilStored(s.conversation.id, 131);
    const unmarked = async () =>
      (
        await env.DB.prepare(
          "SELECT count(*) AS n FROM event_outbox WHERE conversation_id = ? AND name = 'message_created' AND sent_at IS NULL",
        )
          .bind(s.conversation.id)
          .first<{ n: number }>()
      )?.n;
    for (const deadline = Date.now() + 40_000; Date.now() < deadline; ) {
      if ((await unmarked()) === 0) {
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await unmarked()).toBe(0);
    expect(await outboxOf(s.conversation.id)).toHaveLength(131);
    s.socket.close();
  });

  it("loses and reorders nothing when the room is aborted with acked messages only in its log", async () => {
    const s = await setup();
    const marker = `hold${s.conversation.id}`;
    const heal = await failInserts(marker);
    const contents = [`${marker} a`, "b", "c", "d", "e", "f"];
    const acks = await sendAll(s.socket, contents);
    expect(await stored(s.conversation.id)).toHaveLength(0);
    const id = env.ROOMS.idFromName(`${s.account.id}:${s.conversation.id}`);
    // The room's process ends: memory lost, only its storage left.
    await runInDurableObject(env.ROOMS.get(id), (_room, state) => {
      state.abort("killed mid-burst");
    }).catch(() => undefined);
    await heal();
    // A new post wakes a fresh room, which writes its log to D1 first, then the post.
    const post = await api(`${s.base}/messages`, {
      token: s.admin.token,
      body: { content: "after the restart" },
    });
    expect(post.status).toBe(200);
    expect(post.body.seq).toBe(7);
    const rows = await untilStored(s.conversation.id, 7);
    expect(rows.map((r) => [r.id, r.seq])).toEqual([
      ...acks.map((a) => [a.data.id, a.data.seq]),
      [post.body.id, 7],
    ]);
    expect(await outboxOf(s.conversation.id)).toEqual(rows.map((r) => r.id));
  });

  it("writes an agent's HTTP post behind the socket message before it, and answers a retry of that as a duplicate", async () => {
    const s = await setup();
    s.socket.send({ type: "message.create", echo_id: "same", content: "once" });
    const first = await s.socket.next("ack");
    const posted = await api(`${s.base}/messages`, {
      token: s.admin.token,
      body: { content: "posted" },
    });
    // The post is answered at the room's commit (read your writes merges the room's tail); D1
    // gets both behind, in order.
    expect(posted.body.seq).toBe(2);
    const rows = await untilStored(s.conversation.id, 2);
    expect(rows.map((r) => r.id)).toEqual([first.data.id, posted.body.id]);
    s.socket.send({ type: "message.create", echo_id: "same", content: "once" });
    const retry = await s.socket.next("ack");
    expect(retry.data).toMatchObject({ id: first.data.id, seq: 1, duplicate: true });
    expect(await stored(s.conversation.id)).toHaveLength(2);
    s.socket.close();
  });
});
