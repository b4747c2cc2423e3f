import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { MessageRow } from "../../worker/db/schema";
import { MessageIds } from "../../worker/modules/conversation-room/message-ids";
import { type LogEntry, MessageLog } from "../../worker/modules/conversation-room/queries.wal";
import { RoomFrames } from "../../worker/realtime/room-frames";
import { db, unique } from "../support/factories";
import { agentInRoom, failInserts, roomOf, sendAll, stored } from "../support/room-log";

const scratch = () => env.ROOMS.get(env.ROOMS.idFromName(unique("scratch")));

/** A logged message as the room commits one (only what the log reads of it). */
const entry = (id: number, seq: number, key: string | null, incoming = true): LogEntry => ({
  id,
  seq,
  req: {
    conversationId: 1,
    values: { accountId: 1, inboxId: 1, messageType: 0, content: `m${seq} é` },
  } as LogEntry["req"],
  row: {
    id,
    seq,
    conversationId: 1,
    idempotencyKey: key,
    messageType: incoming ? 0 : 1,
    createdAt: 1_700_000_000 + seq,
  } as MessageRow,
});

/** What a fresh log (a restarted room) reads from storage, next to what this one holds. */
function both(sql: SqlStorage, log: MessageLog) {
  const fresh = new MessageLog(sql);
  const view = (l: MessageLog) => ({
    oldest: l.oldest(1_000),
    first2: l.oldest(2).map((e) => e.id),
    size: l.size(),
    byKey: ["k1", "k2", "k3", "k4"].map((k) => l.byKey(k)?.id ?? null),
    incoming: l.incoming(),
  });
  return { held: view(log), stored: view(fresh) };
}

/**
 * The room keeps its message log in memory as well as in storage (so a replication round reads
 * nothing back), and persists its id block and event seq without a write per message: what it
 * holds must be what a restarted room reads, and a restart must never hand out an id or seq again.
 */
describe("the room's storage and its copy in memory", () => {
  it("holds what storage holds through appends, a failed transaction, renumbering, removal and set-aside", async () => {
    const out = await runInDurableObject(scratch(), (_r, state) => {
      const { sql } = state.storage;
      const log = new MessageLog(sql);
      const steps: ReturnType<typeof both>[] = [];
      log.append([entry(10, 1, "k1"), entry(11, 2, null, false), entry(12, 3, "k2")]);
      steps.push(both(sql, log));
      // A group whose storage transaction fails leaves storage as it was; the room forgets.
      expect(() =>
        state.storage.transactionSync(() => {
          log.append([entry(13, 4, "k3")]);
          throw new Error("refused");
        }),
      ).toThrow("refused");
      log.forget();
      steps.push(both(sql, log));
      // A repair renumbers the log after rows imported into D1 behind it.
      for (const [e, id, seq] of [
        [entry(10, 1, "k1"), 20, 5],
        [entry(11, 2, null, false), 11, 6],
        [entry(12, 3, "k2"), 22, 7],
      ] as const) {
        log.renumber(e, id, seq);
      }
      log.append([entry(23, 8, "k4")]);
      steps.push(both(sql, log));
      log.remove([20, 11]);
      steps.push(both(sql, log));
      log.setAside(entry(22, 7, "k2"), "refused by D1");
      steps.push(both(sql, log));
      return steps;
    });
    for (const step of out) {
      expect(step.held).toEqual(step.stored);
    }
    expect(out[0]?.held.oldest.map((e) => [e.id, e.seq])).toEqual([
      [10, 1],
      [11, 2],
      [12, 3],
    ]);
    expect(out[1]?.held.size).toBe(3);
    expect(out[1]?.held.byKey).toEqual([10, 12, null, null]);
    expect(out[2]?.held.oldest.map((e) => [e.id, e.seq, e.row.id, e.row.seq])).toEqual([
      [20, 5, 20, 5],
      [11, 6, 11, 6],
      [22, 7, 22, 7],
      [23, 8, 23, 8],
    ]);
    expect(out[2]?.held.first2).toEqual([20, 11]);
    expect(out[3]?.held.byKey).toEqual([null, 22, null, 23]);
    expect(out[4]?.held.oldest.map((e) => e.id)).toEqual([23]);
    expect(out[4]?.held.incoming).toEqual([{ seq: 8, createdAt: 1_700_000_008 }]);
  });

  it("deletes what D1 has from storage with the next append (or a trim), never reading it back meanwhile", async () => {
    const out = await runInDurableObject(scratch(), (_r, state) => {
      const { sql } = state.storage;
      const log = new MessageLog(sql);
      const ids = (l: MessageLog) => l.oldest(1_000).map((e) => e.id);
      log.append([entry(10, 1, "k1"), entry(11, 2, "k2"), entry(12, 3, null)]);
      log.replicated([10, 11]);
      // Out of the copy at once; storage keeps them until a commit carries their deletion.
      const replicated = {
        held: ids(log),
        byKey: log.byKey("k1") ?? null,
        stored: ids(new MessageLog(sql)),
      };
      // A failed transaction makes the room read storage again: not what D1 has.
      log.forget();
      const reread = { held: ids(log), stored: ids(new MessageLog(sql)) };
      log.replicated([12]);
      log.append([entry(13, 4, null)]);
      const appended = { held: ids(log), stored: ids(new MessageLog(sql)) };
      log.replicated([13]);
      const pending = log.trimPending();
      log.trim();
      return {
        replicated,
        reread,
        appended,
        pending,
        trimmed: { held: ids(log), stored: ids(new MessageLog(sql)), pending: log.trimPending() },
      };
    });
    expect(out.replicated).toEqual({ held: [12], byKey: null, stored: [10, 11, 12] });
    expect(out.reread).toEqual({ held: [12], stored: [12] });
    expect(out.appended).toEqual({ held: [13], stored: [13] });
    expect(out.pending).toBe(true);
    expect(out.trimmed).toEqual({ held: [], stored: [], pending: false });
  });

  it("takes the oldest entries up to the byte budget from memory as storage counts them (UTF-8)", async () => {
    const sizes = await runInDurableObject(scratch(), (_r, state) => {
      const log = new MessageLog(state.storage.sql);
      log.append([entry(1, 1, null), entry(2, 2, null), entry(3, 3, null)]);
      const bytes = new TextEncoder().encode(JSON.stringify(entry(1, 1, null).req)).byteLength;
      const fresh = new MessageLog(state.storage.sql);
      return [2 * bytes - 1, 2 * bytes, 1].map((budget) => [
        log.oldest(10, budget).length,
        fresh.oldest(10, budget).length,
      ]);
    });
    expect(sizes).toEqual([
      [1, 1],
      [2, 2],
      [1, 1],
    ]);
  });

  it("never hands out an id again after a restart, though it stores its block once per many ids", async () => {
    const out = await runInDurableObject(scratch(), async (_r, state) => {
      const first = new MessageIds(state.storage.kv, db);
      const before = [...(await first.take(3)), ...(await first.take(1)), ...(await first.take(2))];
      const puts = state.storage.kv.get<{ next: number }>("message_ids")?.next ?? 0;
      // A restart: a new instance over the same storage, the old one's memory gone.
      const again = await new MessageIds(state.storage.kv, db).take(3);
      return { before, again, stored: puts };
    });
    expect(new Set([...out.before, ...out.again]).size).toBe(9);
    expect(Math.min(...out.again)).toBeGreaterThan(Math.max(...out.before));
    expect(out.stored).toBeGreaterThan(Math.max(...out.before));
  });

  it("goes on after its newest event after a restart, without storing the event seq apart", async () => {
    const out = await runInDurableObject(scratch(), (_r, state) => {
      const frames = new RoomFrames(state);
      for (let i = 0; i < 3; i++) {
        frames.emit({ agent: { event: "x", data: { i } }, contact: null } as never);
      }
      const restarted = new RoomFrames(state).current();
      // A room that stored its seq under `event_seq` before (and emitted nothing since).
      state.storage.kv.put("event_seq", 9);
      const older = new RoomFrames(state).current();
      return { restarted, older, kv: frames.current() };
    });
    expect(out).toEqual({ restarted: 3, older: 9, kv: 3 });
  });

  it("keeps an alarm set while its log holds messages, and lets it go once D1 has them", {
    timeout: 90_000,
  }, async () => {
    const s = await agentInRoom();
    const marker = `alarm${s.conversation.id}`;
    const heal = await failInserts(marker);
    await sendAll(s.socket, [`${marker} a`, "b"]);
    const room = roomOf(s.account.id, s.conversation.id);
    const armed = await runInDurableObject(room, async (_r, state) => ({
      at: await state.storage.getAlarm(),
      now: Date.now(),
      logged: new MessageLog(state.storage.sql).size(),
    }));
    // A crash now would leave two acked messages in the log only: the alarm comes back for them.
    expect(armed.logged).toBe(2);
    expect(armed.at).not.toBeNull();
    expect(Number(armed.at) - armed.now).toBeLessThanOrEqual(5_000);
    await heal();
    // Each alarm is one more attempt; the chain ends once the log is empty (no alarm left).
    let fired = 0;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; fired++) {
      if (!(await runDurableObjectAlarm(room))) {
        break;
      }
    }
    expect(fired).toBeGreaterThan(0);
    expect((await stored(s.conversation.id)).map((r) => r.content)).toEqual([`${marker} a`, "b"]);
    const after = await runInDurableObject(room, async (_r, state) => ({
      at: await state.storage.getAlarm(),
      logged: new MessageLog(state.storage.sql).size(),
    }));
    expect(after).toEqual({ at: null, logged: 0 });
    s.socket.close();
  });
});
