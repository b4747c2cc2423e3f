import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { LogWriter } from "../../worker/modules/conversation-room/log-writer";
import { createConversationIn } from "../support/factories-conversations";
import {
  agentInRoom,
  failInserts,
  logOf,
  outboxOf,
  roomOf,
  sendAll,
  stored,
} from "../support/room-log";
import { type Frame, openSocket } from "../support/ws";

/** Two conversations of one account, an agent's socket in each room. */
async function twoRooms() {
  const a = await agentInRoom();
  const { conversation } = await createConversationIn(a.account.id, a.inbox.id);
  const base = `/api/v1/accounts/${a.account.id}/conversations/${conversation.displayId}`;
  const socket = await openSocket(`${base}/live`, { api_access_token: a.agent.token });
  await socket.next("ready");
  // A stub that saw its object aborted is broken: each use takes a new one.
  const room = (id: number) => () => roomOf(a.account.id, id);
  const writer = env.WRITERS.get(
    env.WRITERS.idFromName(`writer:${a.account.id}`),
  ) as unknown as DurableObjectStub<LogWriter>;
  const rooms = [
    { conversation: a.conversation, socket: a.socket, stub: room(a.conversation.id) },
    { conversation, socket, stub: room(conversation.id) },
  ] as const;
  return {
    accountId: a.account.id,
    rooms,
    writer,
  };
}

const counts = (writer: DurableObjectStub<LogWriter>) =>
  runInDurableObject(writer, (w) => ({ ...w.counts() }));

/** Wakes the room (it writes what its log holds) until its log is empty. */
async function untilLogEmpty(room: () => DurableObjectStub) {
  for (const deadline = Date.now() + 40_000; Date.now() < deadline; ) {
    const n = await runInDurableObject(room(), (_r, state) =>
      Number(state.storage.sql.exec("SELECT count(*) AS n FROM message_log").one().n),
    );
    if (n === 0) {
      return;
    }
    if (!(await runDurableObjectAlarm(room()))) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error("the room's log was never written");
}

/** The account's log writer (docs/realtime.md, "Write path"): many rooms per D1 transaction. */
describe("the account's log writer", () => {
  it("writes two rooms' logs in one D1 transaction; the rooms' retries (answers lost) store nothing twice", {
    timeout: 90_000,
  }, async () => {
    const w = await twoRooms();
    const marker = `both${w.accountId}`;
    const heal = await failInserts(marker);
    const acks = [];
    for (const [n, r] of w.rooms.entries()) {
      acks.push(await sendAll(r.socket, [`${marker} ${n}a`, `${marker} ${n}b`, `${marker} ${n}c`]));
    }
    const calls = [await logOf(w.rooms[0].stub), await logOf(w.rooms[1].stub)];
    expect(calls.map((c) => c.entries.length)).toEqual([3, 3]);
    await heal();
    const before = await counts(w.writer);
    // Both calls arrive in one turn: one transaction carries them.
    const answers = await runInDurableObject(w.writer, (writer: LogWriter) =>
      Promise.all(calls.map((c) => writer.write(c))),
    );
    expect(answers).toEqual([{ ok: true }, { ok: true }]);
    for (const r of w.rooms) {
      expect(await outboxOf(r.conversation.id)).toHaveLength(3);
    }
    expect(await counts(w.writer)).toEqual({
      batches: before.batches + 1,
      messages: before.messages + 6,
    });
    for (const [n, r] of w.rooms.entries()) {
      const rows = await stored(r.conversation.id);
      expect(rows.map((row) => [row.id, row.seq])).toEqual(
        (acks[n] as Frame[]).map((a) => [a.data.id, a.data.seq]),
      );
    }
    // The rooms never heard the answers: woken, each writes its log again, finds its rows
    // at their ids and seqs, and trims it.
    for (const [n, r] of w.rooms.entries()) {
      await untilLogEmpty(r.stub);
      expect((await stored(r.conversation.id)).map((row) => row.id)).toEqual(
        (acks[n] as Frame[]).map((a) => a.data.id),
      );
      expect(await outboxOf(r.conversation.id)).toEqual((acks[n] as Frame[]).map((a) => a.data.id));
    }
  });

  it("keeps its counts in storage within a second, not a write each transaction (the bench reads them there)", {
    timeout: 60_000,
  }, async () => {
    const w = await twoRooms();
    for (const [n, r] of w.rooms.entries()) {
      await sendAll(r.socket, [`count ${n}a`, `count ${n}b`]);
      await untilLogEmpty(r.stub);
    }
    const stored = () =>
      runInDurableObject(w.writer, (writer: LogWriter, state) => ({
        counted: { ...writer.counts() },
        kept: {
          batches: state.storage.kv.get<number>("d1_batches") ?? 0,
          messages: state.storage.kv.get<number>("d1_messages") ?? 0,
        },
      }));
    const now = await stored();
    expect(now.counted.messages).toBeGreaterThanOrEqual(4);
    // Waits for the state, not a time: storage catches up with the counts.
    let later = now;
    for (let i = 0; i < 100 && later.kept.batches !== later.counted.batches; i++) {
      await new Promise((r) => setTimeout(r, 100));
      later = await stored();
    }
    expect(later.kept).toEqual(later.counted);
  });

  it("fails only the room whose message D1 refuses; the other room's log goes through", {
    timeout: 90_000,
  }, async () => {
    const w = await twoRooms();
    const [poison, fine] = [`poison${w.accountId}`, `fine${w.accountId}`];
    const healPoison = await failInserts(poison);
    const healFine = await failInserts(fine);
    const acksA = await sendAll(w.rooms[0].socket, [`${poison} a`, `${poison} b`]);
    const acksB = await sendAll(w.rooms[1].socket, [`${fine} a`, `${fine} b`, `${fine} c`]);
    const calls = [await logOf(w.rooms[0].stub), await logOf(w.rooms[1].stub)];
    await healFine();
    const before = await counts(w.writer);
    const answers = await runInDurableObject(w.writer, (writer: LogWriter) =>
      Promise.all(calls.map((c) => writer.write(c))),
    );
    expect(answers[0]).toEqual({
      ok: false,
      error: expect.stringContaining("injected D1 failure"),
    });
    expect(answers[1]).toMatchObject({ ok: true });
    // The combined transaction, then each room's own.
    expect(await counts(w.writer)).toEqual({
      batches: before.batches + 3,
      messages: before.messages + 3,
    });
    expect(await stored(w.rooms[0].conversation.id)).toHaveLength(0);
    expect((await stored(w.rooms[1].conversation.id)).map((r) => r.id)).toEqual(
      acksB.map((a) => a.data.id),
    );
    // The refused room keeps its log; once D1 takes it, it lands once, as acked.
    await healPoison();
    for (const r of w.rooms) {
      await untilLogEmpty(r.stub);
    }
    expect((await stored(w.rooms[0].conversation.id)).map((r) => [r.id, r.seq])).toEqual(
      acksA.map((a) => [a.data.id, a.data.seq]),
    );
    expect(await outboxOf(w.rooms[0].conversation.id)).toEqual(acksA.map((a) => a.data.id));
    expect(await outboxOf(w.rooms[1].conversation.id)).toEqual(acksB.map((a) => a.data.id));
  });

  it("loses and doubles nothing when the writer is aborted while rooms are writing", {
    timeout: 90_000,
  }, async () => {
    const w = await twoRooms();
    const contents = Array.from({ length: 30 }, (_, i) => `m${i}`);
    const bursts = w.rooms.map((r) => sendAll(r.socket, contents));
    // The writer's process ends while the bursts are being written (its calls fail; the rooms
    // keep their logs and retry).
    await runInDurableObject(w.writer, (_w, state) => state.abort("writer killed")).catch(
      () => undefined,
    );
    const acks = await Promise.all(bursts);
    for (const [n, r] of w.rooms.entries()) {
      await untilLogEmpty(r.stub);
      const ids = (acks[n] as Frame[]).map((a) => a.data.id);
      const rows = await stored(r.conversation.id);
      expect(rows.map((row) => [row.id, row.seq])).toEqual(
        (acks[n] as Frame[]).map((a) => [a.data.id, a.data.seq]),
      );
      expect(await outboxOf(r.conversation.id)).toEqual(ids);
      r.socket.close();
    }
  });
  it("after the writer dies mid-transaction, the rooms' retries store every acked message once", {
    timeout: 90_000,
  }, async () => {
    const w = await twoRooms();
    const marker = `mid${w.accountId}`;
    const heal = await failInserts(marker);
    const acks = [];
    for (const [n, r] of w.rooms.entries()) {
      acks.push(await sendAll(r.socket, [`${marker} ${n}a`, `${marker} ${n}b`]));
    }
    const calls = [await logOf(w.rooms[0].stub), await logOf(w.rooms[1].stub)];
    await heal();
    // The transaction is sent, then the writer's process ends before it answers: D1 holds the
    // whole transaction or none of it, and no room heard back.
    await runInDurableObject(w.writer, async (writer: LogWriter, state) => {
      const pending = Promise.all(calls.map((c) => writer.write(c)));
      await new Promise((r) => setTimeout(r, 0));
      state.abort("writer killed mid-transaction");
      await pending;
    }).catch(() => undefined);
    for (const [n, r] of w.rooms.entries()) {
      await untilLogEmpty(r.stub);
      const ids = (acks[n] as Frame[]).map((a) => a.data.id);
      expect((await stored(r.conversation.id)).map((row) => [row.id, row.seq])).toEqual(
        (acks[n] as Frame[]).map((a) => [a.data.id, a.data.seq]),
      );
      expect(await outboxOf(r.conversation.id)).toEqual(ids);
    }
  });
});
