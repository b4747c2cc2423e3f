import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { LogWriter } from "../../worker/modules/conversation-room/log-writer";
import { MessageLog } from "../../worker/modules/conversation-room/queries.wal";
import { MAX_CALL_BYTES } from "../../worker/modules/conversation-room/replicator";
import { agentInRoom, failInserts, outboxOf, roomOf, stored } from "../support/room-log";
import type { Frame } from "../support/ws";

/** Near the longest content a message may have, 3 bytes a character in UTF-8. */
const big = (head: string) => `${head} ${"€".repeat(149_000)}`;

const logSize = (room: DurableObjectStub) =>
  runInDurableObject(room, (_r, state) =>
    Number(state.storage.sql.exec("SELECT count(*) AS n FROM message_log").one().n),
  );

/**
 * A room's call to the account's log writer is an RPC call, refused past 32 MiB: the replicator
 * splits the log by the bytes of its requests (MAX_CALL_BYTES), oldest first, so a log of many
 * large messages reaches D1 in several calls, in seq order, each message once.
 */
describe("log writer calls split by bytes", () => {
  it("takes the oldest entries up to the byte budget, one at least however large", async () => {
    const a = await agentInRoom();
    const marker = `slice${a.account.id}`;
    const heal = await failInserts(marker);
    for (let i = 0; i < 3; i++) {
      a.socket.send({ type: "message.create", echo_id: `s${i}`, content: big(`${marker} ${i}`) });
    }
    for (let i = 0; i < 3; i++) {
      await a.socket.next("ack", 15_000);
    }
    const room = roomOf(a.account.id, a.conversation.id);
    const taken = await runInDurableObject(room, (_r, state) => {
      const log = new MessageLog(state.storage.sql);
      return [log.oldest(200, 1_000_000), log.oldest(200, 10), log.oldest(2), log.oldest(200)].map(
        (entries) => entries.map((e) => e.seq),
      );
    });
    expect(await stored(a.conversation.id)).toEqual([]);
    const seqs = taken[3] as number[];
    expect(seqs).toHaveLength(3);
    // Each request is ~447 KB: two fit in 1,000,000 bytes; none fits in 10, yet one is taken.
    expect(taken).toEqual([seqs.slice(0, 2), seqs.slice(0, 1), seqs.slice(0, 2), seqs]);
    await heal();
  });

  it("writes a log larger than one call's budget in several calls, in seq order, each once", {
    timeout: 120_000,
  }, async () => {
    const a = await agentInRoom();
    const marker = `split${a.account.id}`;
    // D1 refuses them at first: they gather in the room's log (acked all the same).
    const heal = await failInserts(marker);
    const n = Math.ceil((2.2 * MAX_CALL_BYTES) / 447_000);
    const acks: Frame[] = [];
    for (let i = 0; i < n; i++) {
      a.socket.send({ type: "message.create", echo_id: `b${i}`, content: big(`${marker} ${i}`) });
      acks.push(await a.socket.next("ack", 15_000));
    }
    const room = () => roomOf(a.account.id, a.conversation.id);
    expect(await logSize(room())).toBe(n);
    const writer = env.WRITERS.get(
      env.WRITERS.idFromName(`writer:${a.account.id}`),
    ) as unknown as DurableObjectStub<LogWriter>;
    const counted = () => runInDurableObject(writer, (w) => w.counts().batches);
    const before = await counted();
    await heal();
    for (const deadline = Date.now() + 90_000; (await logSize(room())) > 0; ) {
      if (Date.now() > deadline) {
        throw new Error("the room's log was never written");
      }
      if (!(await runDurableObjectAlarm(room()))) {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const rows = await stored(a.conversation.id);
    expect(rows.map((r) => [r.id, r.seq])).toEqual(acks.map((f) => [f.data.id, f.data.seq]));
    expect(await outboxOf(a.conversation.id)).toEqual(acks.map((f) => f.data.id));
    // The oldest alone after the failure, then at least three calls for the rest (> 2 budgets).
    expect((await counted()) - before).toBeGreaterThanOrEqual(4);
  });
});
