import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import { LogRepair } from "../../worker/modules/conversation-room/log-repair";
import type { MessageIds } from "../../worker/modules/conversation-room/message-ids";
import { type LogEntry, MessageLog } from "../../worker/modules/conversation-room/queries.wal";
import { db, unique } from "../support/factories";
import { agentInRoom, failInserts, roomOf, stored } from "../support/room-log";

/**
 * D1 binds at most 100 values in one statement. A log write carries up to 200 messages, so the
 * repair that sorts out a refused write reads the log's ids and idempotency keys in slices.
 */
describe("the log repair with more than 100 messages", () => {
  it("finds 129 messages an earlier attempt wrote (its answer lost) in one repair", {
    timeout: 90_000,
  }, async () => {
    const s = await agentInRoom();
    const marker = `slice${s.conversation.id}`;
    const heal = await failInserts(marker);
    // The first message holds the log (D1 refuses it), so the 129 after it stay logged.
    const contents = [`${marker} 0`, ...Array.from({ length: 129 }, (_, i) => `m${i + 1}`)];
    contents.forEach((content, i) => {
      s.socket.send({ type: "message.create", echo_id: `e${i}`, content });
    });
    for (const _ of contents) {
      await s.socket.next("ack", 15_000);
    }
    const logged = await runInDurableObject(roomOf(s.account.id, s.conversation.id), (_r, state) =>
      new MessageLog(state.storage.sql).oldest(1_000),
    );
    expect(logged).toHaveLength(130);
    const written = logged.slice(1);
    expect(written.every((e) => e.row.idempotencyKey)).toBe(true);
    // An attempt whose answer was lost: D1 holds these rows, the log still has them.
    await db().batch(
      written.map((e) => db().insert(t.messages).values(e.row)) as [never, ...never[]],
    );
    expect(await stored(s.conversation.id)).toHaveLength(129);
    // The repair runs in a room of its own, over a log holding these entries, with the real D1.
    const scratch = env.ROOMS.get(env.ROOMS.idFromName(unique("scratch")));
    const done = await runInDurableObject(scratch, async (_r, state) => {
      const log = new MessageLog(state.storage.sql);
      log.append(written);
      const left: LogEntry[][] = [];
      const repair = new LogRepair(
        log,
        db,
        {} as MessageIds,
        { raise: () => {} },
        new Map(),
        (entries) => {
          left.push(entries);
          log.remove(entries.map((e) => e.id));
        },
      );
      const refusal = new Error(
        "D1_ERROR: UNIQUE constraint failed: messages.id: SQLITE_CONSTRAINT",
      );
      const again = await repair.repair(written, refusal);
      return { again, left: left.flat().map((e) => e.id), size: log.size() };
    });
    expect(done).toEqual({ again: true, left: written.map((e) => e.id), size: 0 });
    await heal();
    s.socket.close();
  });
});
