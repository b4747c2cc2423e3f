import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { LogWriter } from "../../worker/modules/conversation-room/log-writer";
import { type LogEntry, MessageLog } from "../../worker/modules/conversation-room/queries.wal";
import { createContact } from "../support/factories-contacts";
import { createPublicConversationRow, createPublicWorld } from "../support/factories-public";
import { api } from "../support/http";
import { postStored } from "../support/posted";
import {
  failInserts,
  outboxOf,
  roomOf,
  stored,
  untilLogTrimmed,
  untilStored,
} from "../support/room-log";
import { openSocket } from "../support/ws";

/**
 * The room deletes what D1 has from its storage with its next append's commit (or once idle),
 * not in a commit of its own (docs/realtime.md, "Write path"): a crash in between leaves entries
 * D1 holds in the log, and the restarted room writes its log again. D1 knows them by the
 * conversation's `log_seq`, set in the same transaction as their rows, whatever became of the
 * rows since: an edit, a delete, a contact merge change none of it, and nothing comes back twice.
 */
describe("a room restarted with entries D1 already has in its log", () => {
  it("writes none of them again after an edit, a delete and a contact merge", {
    timeout: 90_000,
  }, async () => {
    const w = await createPublicWorld();
    const { contact, path, row } = await createPublicConversationRow(w.base);
    const base = await createContact(w.account.id);
    const account = `/api/v1/accounts/${w.account.id}/conversations/${row.displayId}`;
    const room = () => roomOf(w.account.id, row.id);
    const marker = `replay${row.id}`;
    // D1 refuses them at first, so the log holds all of them at once (the test copies it).
    const heal = await failInserts(marker);
    const visitor = await openSocket(`/public/api/v1/inboxes/${path}/live`);
    await visitor.next("ready");
    visitor.send({ type: "message.create", echo_id: "v1", content: `${marker} v1` });
    visitor.send({ type: "message.create", echo_id: "v2", content: `${marker} v2` });
    const acks = [await visitor.next("ack", 15_000), await visitor.next("ack", 15_000)];
    // An HTTP post has no idempotency key: nothing but its id and seq tell it apart.
    const posting = api(`${account}/messages`, {
      token: w.admin.token,
      body: { content: "posted" },
    });
    let copy: LogEntry[] = [];
    for (const deadline = Date.now() + 40_000; copy.length < 3 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 50));
      copy = await runInDurableObject(room(), (_r, state) =>
        new MessageLog(state.storage.sql).oldest(100),
      );
    }
    expect(copy.map((e) => e.seq)).toEqual([1, 2, 3]);
    await heal();
    for (const deadline = Date.now() + 40_000; Date.now() < deadline; ) {
      if ((await stored(row.id)).length >= 3 || !(await runDurableObjectAlarm(room()))) {
        break;
      }
    }
    const post = await posting;
    expect(post.status).toBe(200);
    const ids = [acks[0]?.data.id, acks[1]?.data.id, post.body.id];
    expect((await untilStored(row.id, 3)).map((r) => r.id)).toEqual(ids);
    await untilLogTrimmed(room());
    // D1's rows change behind the room's log: an edit, a delete, the contact merged.
    const edited = await api(`${account}/messages/${post.body.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { content: "edited" },
    });
    expect(edited.status).toBe(200);
    const deleted = await api(`${account}/messages/${acks[0]?.data.id}`, {
      method: "DELETE",
      token: w.admin.token,
    });
    expect(deleted.status).toBe(200);
    const merged = await api(`/api/v1/accounts/${w.account.id}/actions/contact_merge`, {
      method: "POST",
      token: w.admin.token,
      body: { base_contact_id: base.id, mergee_contact_id: contact.id },
    });
    expect(merged.status).toBe(200);
    const before = await stored(row.id);
    const writer = env.WRITERS.get(
      env.WRITERS.idFromName(`writer:${w.account.id}`),
    ) as unknown as DurableObjectStub<LogWriter>;
    const batches = () => runInDurableObject(writer, (x) => x.counts().batches);
    const batchesBefore = await batches();
    // The crash: the entries are back in storage as if their trim never committed, memory lost.
    await runInDurableObject(room(), (_r, state) => {
      new MessageLog(state.storage.sql).append(copy);
    });
    await runInDurableObject(room(), (_r, state) => state.abort("crashed before the trim")).catch(
      () => undefined,
    );
    // A new post wakes a fresh room, which writes its log to D1 first, then the post (answered
    // at the room's commit: read once D1 has it).
    const after = await postStored(`${account}/messages`, {
      token: w.admin.token,
      body: { content: "after the restart" },
    });
    expect(after.status).toBe(200);
    expect(after.body.seq).toBe(4);
    const rows = await stored(row.id);
    expect(rows.map((r) => [r.id, r.seq])).toEqual([
      ...ids.map((id, i) => [id, i + 1]),
      [after.body.id, 4],
    ]);
    expect(rows.slice(0, 3)).toEqual(before);
    expect(rows.map((r) => r.content)).toEqual([
      before[0]?.content,
      `${marker} v2`,
      "edited",
      "after the restart",
    ]);
    expect(rows[1]).toMatchObject({ senderType: "Contact", senderId: base.id });
    expect(await outboxOf(row.id)).toEqual(rows.map((r) => r.id));
    // The restarted room asked D1's `log_seq` before writing: its one D1 transaction is the
    // post's, none refused for the entries D1 had.
    expect((await batches()) - batchesBefore).toBe(1);
    await untilLogTrimmed(room());
    visitor.close();
  });
});
