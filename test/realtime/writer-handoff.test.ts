import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { QueueMessage } from "../../worker/env";
import { sweep } from "../../worker/events/sweep";
import { nowSeconds } from "../../worker/lib/time";
import type { LogWriter, WriterCall } from "../../worker/modules/conversation-room/log-writer";
import { type FeedStub, feedFor } from "../../worker/modules/live/stubs";
import type { FeedEvent } from "../../worker/realtime/account-feed";
import { createConversationIn } from "../support/factories-conversations";
import { api } from "../support/http";
import { agentInRoom, failInserts, logOf, roomOf, sendAll, stored } from "../support/room-log";
import { type Frame, openSocket, settle } from "../support/ws";

/** Three conversations of one account, an inbox agent's socket in each room. */
async function threeRooms() {
  const a = await agentInRoom();
  const rooms = [{ conversation: a.conversation, socket: a.socket }];
  for (const _ of [1, 2]) {
    const { conversation } = await createConversationIn(a.account.id, a.inbox.id);
    const base = `/api/v1/accounts/${a.account.id}/conversations/${conversation.displayId}`;
    const socket = await openSocket(`${base}/live`, { api_access_token: a.agent.token });
    await socket.next("ready");
    rooms.push({ conversation, socket });
  }
  const writer = () =>
    env.WRITERS.get(
      env.WRITERS.idFromName(`writer:${a.account.id}`),
    ) as unknown as DurableObjectStub<LogWriter>;
  return { ...a, rooms, writer };
}

/** The agent's account feed socket (ready). */
async function feedOf(w: { account: { id: number }; agent: { token: string } }) {
  const feed = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
    api_access_token: w.agent.token,
  });
  await feed.next("ready");
  return feed;
}

/** The writer's relay and feed stub, to watch (what the writer holds is private). */
type Inside = { relay: { queue: Queue<QueueMessage>; marks: number[] }; feed?: FeedStub };
const inside = (w: LogWriter) => w as unknown as Inside;

/** The conversations' message_created outbox rows: [id, sent]. */
const outboxRows = (conversationIds: number[]) =>
  env.DB.prepare(
    `SELECT id, sent_at IS NOT NULL AS sent FROM event_outbox WHERE name = 'message_created' AND conversation_id IN (${conversationIds.join(",")}) ORDER BY id`,
  )
    .all<{ id: number; sent: number }>()
    .then((r) => r.results);

/**
 * The writer answers every room's call with a refusal (touching no D1) until released: the rooms
 * keep their logs, and a call in flight cannot reach D1 behind the test's back.
 */
async function hold(writer: DurableObjectStub<LogWriter>) {
  await runInDurableObject(writer, (w: LogWriter) => {
    (w as unknown as { write: LogWriter["write"] }).write = async () => ({
      ok: false,
      error: "held by the test",
    });
  });
  return () =>
    runInDurableObject(writer, (w: LogWriter) => {
      delete (w as unknown as { write?: unknown }).write;
    });
}

async function until(check: () => Promise<boolean>, what: string) {
  for (const deadline = Date.now() + 40_000; Date.now() < deadline; ) {
    if (await check()) {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never: ${what}`);
}

describe("the log writer passes on what its transactions leave", () => {
  it("sends the outbox rows of many rooms' messages in one queue send, and marks each row sent", {
    timeout: 90_000,
  }, async () => {
    const w = await threeRooms();
    // The writer refuses the rooms' calls until their logs are taken: the test makes the rooms'
    // calls at once.
    const release = await hold(w.writer());
    for (const r of w.rooms) {
      await sendAll(r.socket, ["a", "b"]);
    }
    const calls: WriterCall[] = [];
    for (const r of w.rooms) {
      calls.push(await logOf(() => roomOf(w.account.id, r.conversation.id), true));
    }
    await release();
    const sends: number[][] = [];
    const answers = await runInDurableObject(w.writer(), (writer: LogWriter) => {
      const relay = inside(writer).relay;
      const queue = relay.queue;
      relay.queue = {
        sendBatch: (messages: MessageSendRequest<QueueMessage>[]) => {
          sends.push(messages.map((m) => m.body.id));
          return queue.sendBatch(messages);
        },
      } as Queue<QueueMessage>;
      return Promise.all(calls.map((c) => writer.write(c)));
    });
    expect(answers).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    const ids = w.rooms.map((r) => r.conversation.id);
    // The marks ride on the writer's next transaction, or go alone after a few quiet seconds.
    await until(async () => (await outboxRows(ids)).every((r) => r.sent), "every row marked");
    const rows = await outboxRows(ids);
    expect(rows).toHaveLength(6);
    expect(sends).toHaveLength(1);
    expect([...(sends[0] as number[])].sort((x, y) => x - y)).toEqual(rows.map((r) => r.id));
    // Nothing waits to be marked again.
    expect(await runInDurableObject(w.writer(), (writer) => inside(writer).relay.marks)).toEqual(
      [],
    );
  });

  it("leaves the rows unmarked when the queue refuses them; the sweep sends them", {
    timeout: 90_000,
  }, async () => {
    const w = await threeRooms();
    const release = await hold(w.writer());
    const room = w.rooms[0] as (typeof w.rooms)[number];
    await sendAll(room.socket, ["x", "y"]);
    const call = await logOf(() => roomOf(w.account.id, room.conversation.id), true);
    await release();
    let tried = 0;
    const answer = await runInDurableObject(w.writer(), (writer: LogWriter) => {
      inside(writer).relay.queue = {
        sendBatch: async () => {
          tried += 1;
          throw new Error("queue unavailable");
        },
      } as unknown as Queue<QueueMessage>;
      return writer.write(call);
    });
    expect(answer).toEqual({ ok: true });
    await until(async () => tried > 0, "a queue send");
    const ids = [room.conversation.id];
    expect((await outboxRows(ids)).map((r) => r.sent)).toEqual([0, 0]);
    expect(await runInDurableObject(w.writer(), (writer) => inside(writer).relay.marks)).toEqual(
      [],
    );
    // Past the sweep's grace, the cron sends and marks them.
    await sweep(env, nowSeconds() + 60);
    expect((await outboxRows(ids)).map((r) => r.sent)).toEqual([1, 1]);
  });

  it("sends the feed frames of a transaction's rooms in one call, each conversation's in order", {
    timeout: 90_000,
  }, async () => {
    const w = await threeRooms();
    const feed = await feedOf(w);
    const published: FeedEvent[][] = [];
    const before = await runInDurableObject(w.writer(), (writer: LogWriter) => {
      inside(writer).feed = {
        publishAll: (events: FeedEvent[]) => {
          published.push(events);
          // A stub belongs to the call that made it: the writer's, here.
          return feedFor(env, w.account.id).publishAll(events);
        },
      } as unknown as FeedStub;
      return writer.counts().batches;
    });
    // While D1 refuses them, each room commits four groups (one message each, a frame each):
    // its call then carries the four frames, to go in order.
    const marker = `groups${w.account.id}`;
    const heal = await failInserts(marker);
    for (const r of w.rooms) {
      for (const n of [1, 2, 3, 4]) {
        await sendAll(r.socket, [`${marker} ${n}`]);
      }
    }
    await heal();
    await until(async () => {
      let all = true;
      for (const r of w.rooms) {
        if ((await stored(r.conversation.id)).length < 4) {
          all = false;
          await runDurableObjectAlarm(roomOf(w.account.id, r.conversation.id));
        }
      }
      return all;
    }, "the held messages in D1");
    // Then bursts into the three rooms at once.
    const contents = Array.from({ length: 12 }, (_, i) => `m${i}`);
    const acks = await Promise.all(w.rooms.map((r) => sendAll(r.socket, contents)));
    const lastOf = (n: number) => (acks[n] as Frame[]).at(-1)?.data.id;
    // A frame's `id` is the conversation's display id (the API's).
    const framesOf = (displayId: number) =>
      feed.all("message.created").filter((f) => f.data.id === displayId);
    await until(
      async () =>
        w.rooms.every(
          (r, n) =>
            framesOf(r.conversation.displayId).at(-1)?.data.last_non_activity_message.id ===
            lastOf(n),
        ),
      "each conversation's last message on the feed",
    );
    for (const r of w.rooms) {
      const seqs = framesOf(r.conversation.displayId).map(
        (f) => f.data.last_non_activity_message.seq,
      );
      expect(seqs.slice(0, 4)).toEqual([1, 2, 3, 4]);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(seqs.length);
    }
    // Every frame came through the writer, at most one call to the feed per transaction.
    const batches = await runInDurableObject(w.writer(), (writer) => writer.counts().batches);
    expect(published.flat()).toHaveLength(feed.all("message.created").length);
    expect(published.length).toBeLessThanOrEqual(batches - before);
    feed.close();
  });

  it("sends a message's feed frame once D1 holds it, not before", { timeout: 90_000 }, async () => {
    const w = await threeRooms();
    const marker = `held${w.account.id}`;
    const heal = await failInserts(marker);
    const feed = await feedOf(w);
    const { conversation, socket } = w.rooms[0] as (typeof w.rooms)[number];
    const conversationId = conversation.id;
    const [ack] = await sendAll(socket, [`${marker} a`]);
    // Acked from the room's log while D1 refuses it: no frame yet.
    await settle(1_000);
    expect(feed.all("message.created")).toHaveLength(0);
    await heal();
    const room = roomOf(w.account.id, conversationId);
    await until(async () => {
      if ((await stored(conversationId)).length > 0) {
        return true;
      }
      await runDurableObjectAlarm(room);
      return false;
    }, "the message in D1");
    const frame = await feed.next("message.created");
    expect(frame.data.last_non_activity_message.id).toBe(ack?.data.id);
    feed.close();
  });

  it("hands a message with files (written by its room) to the writer: its row is sent, its frame sent", {
    timeout: 90_000,
  }, async () => {
    const w = await threeRooms();
    const feed = await feedOf(w);
    const form = new FormData();
    form.append("content", "see attached");
    form.append("attachments[]", new File(["hello file"], "notes.txt", { type: "text/plain" }));
    const res = await api(`${w.base}/messages`, {
      method: "POST",
      token: w.agent.token,
      raw: form,
    });
    expect(res.status).toBe(200);
    const frame = await feed.next("message.created");
    expect(frame.data.last_non_activity_message.id).toBe(res.body.id);
    // Sent by the writer, and marked alone after its quiet seconds.
    const ids = [w.conversation.id];
    await until(async () => (await outboxRows(ids)).every((r) => r.sent), "the row marked");
    expect(await outboxRows(ids)).toHaveLength(1);
    feed.close();
  });
});
