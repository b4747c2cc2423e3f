import { env } from "cloudflare:test";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../worker/db/schema";
import type { Bindings, TimedMessage } from "../../worker/env";
import { nowSeconds } from "../../worker/lib/time";
import { autoResolveDue, TIMED_BATCH, wakeSnoozed } from "../../worker/modules/schedule/service";
import { countingDb } from "../support/counting-db";
import { createAccount, createAdmin, createInbox, db } from "../support/factories";
import { outboxOf } from "../support/factories-automation";
import { conversationRow, createConversation } from "../support/factories-conversations";
import { api } from "../support/http";
import { deliverTimed, drain, recordingTimed, TIMED_BATCH_MESSAGES } from "../support/timed";

// The schedule tick only finds what is due and fans it out on the TIMED queue; the consumer
// changes each message's conversations (docs/conversations.md, "Timed work").

const notesOf = async (conversationId: number) =>
  (
    await db()
      .select()
      .from(t.messages)
      .where(eq(t.messages.conversationId, conversationId))
      .orderBy(asc(t.messages.seq))
      .all()
  ).map((m) => m.content);

const statusEvents = async (conversationId: number) =>
  (await outboxOf(conversationId)).filter((r) => r.name === "conversation_status_changed");

async function idleConversations(n: number, settings: Record<string, unknown> = {}) {
  const now = nowSeconds();
  const account = await createAccount({ settings: { auto_resolve_after: 10, ...settings } });
  const inbox = await createInbox(account.id);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await createConversation(account.id, inbox.id, { lastActivityAt: now - 900 })).id);
  }
  return { now, account, ids };
}

/** The tick's messages, keeping only these conversations (other tests' rows may be due too). */
const mine = (sent: TimedMessage[], ids: number[]) =>
  sent.flatMap((m) => m.items.map(([id]) => id)).filter((id) => ids.includes(id));

/** Messages of these conversations as the tick would send them (their event_seq as now). */
async function messagesFor(ids: number[], at: number, task: TimedMessage["task"] = "auto_resolve") {
  const items: [number, number][] = [];
  for (const id of ids) {
    items.push([id, (await conversationRow(id))?.eventSeq ?? -1]);
  }
  const messages: TimedMessage[] = [];
  for (let i = 0; i < items.length; i += TIMED_BATCH) {
    messages.push({ kind: "timed", task, at, items: items.slice(i, i + TIMED_BATCH) });
  }
  return messages;
}

describe("the schedule tick fans out", () => {
  it("sends the due conversations in messages of at most TIMED_BATCH, and changes nothing itself", async () => {
    const { now, ids } = await idleConversations(23);
    const recorded = recordingTimed();
    expect(await autoResolveDue(recorded.env, now)).toBeGreaterThanOrEqual(23);
    expect(recorded.sent.every((m) => m.items.length <= TIMED_BATCH)).toBe(true);
    expect(recorded.sent.every((m) => m.task === "auto_resolve" && m.at === now)).toBe(true);
    expect(mine(recorded.sent, ids).sort()).toEqual([...ids].sort());
    // Nothing is resolved until a consumer works the messages.
    for (const id of ids) {
      expect((await conversationRow(id))?.status).toBe("open");
    }
    await drain(recorded.sent);
    for (const id of ids) {
      expect((await conversationRow(id))?.status).toBe("resolved");
      expect(await notesOf(id)).toEqual([
        "Conversation was marked resolved by system due to 10 minutes of inactivity",
      ]);
    }
  });

  it("a message delivered twice, even at once, gives one resolve, one note and one event", async () => {
    const { now, ids } = await idleConversations(4, { auto_resolve_message: "bye" });
    const messages = await messagesFor(ids, now);
    await Promise.all([deliverTimed(messages), deliverTimed(messages)]);
    await deliverTimed(messages);
    for (const id of ids) {
      expect((await conversationRow(id))?.status).toBe("resolved");
      expect(await notesOf(id)).toEqual([
        "Conversation was marked resolved by system due to 10 minutes of inactivity",
        "bye",
      ]);
      expect(await statusEvents(id)).toHaveLength(1);
    }
  });

  it("a conversation resolved and reopened by an agent between the tick and the consumer stays open", async () => {
    const { now, account, ids } = await idleConversations(2);
    const [moved, still] = ids as [number, number];
    const recorded = recordingTimed();
    await autoResolveDue(recorded.env, now);
    const admin = await createAdmin(account.id);
    const row = await conversationRow(moved);
    const path = `/api/v1/accounts/${account.id}/conversations/${row?.displayId}/toggle_status`;
    for (const status of ["resolved", "open"]) {
      const res = await api(path, { method: "POST", token: admin.token, body: { status } });
      expect(res.status).toBe(200);
    }
    await drain(recorded.sent);
    expect((await conversationRow(moved))?.status).toBe("open");
    expect(await notesOf(moved)).toEqual([
      `Conversation was marked resolved by ${admin.name}`,
      `Conversation was reopened by ${admin.name}`,
    ]);
    expect((await conversationRow(still))?.status).toBe("resolved");
  });

  it("a wake-up goes the same way: fanned out, then reopened once", async () => {
    const now = nowSeconds();
    const account = await createAccount();
    const inbox = await createInbox(account.id);
    const c = await createConversation(account.id, inbox.id, {
      status: "snoozed",
      snoozedUntil: now - 1,
    });
    const recorded = recordingTimed();
    await wakeSnoozed(recorded.env, now);
    expect(recorded.sent.every((m) => m.task === "wake" && m.items.length <= TIMED_BATCH)).toBe(
      true,
    );
    expect(mine(recorded.sent, [c.id])).toEqual([c.id]);
    expect((await conversationRow(c.id))?.status).toBe("snoozed");
    await drain(recorded.sent);
    await drain(recorded.sent);
    expect((await conversationRow(c.id))?.status).toBe("open");
    expect(await notesOf(c.id)).toEqual(["Conversation was reopened by system"]);
  });

  it("one consumer invocation (a full batch of messages) makes a bounded number of D1 calls", async () => {
    const n = TIMED_BATCH * TIMED_BATCH_MESSAGES;
    const { now, ids } = await idleConversations(n, { auto_resolve_message: "bye" });
    const messages = await messagesFor(ids, now);
    expect(messages).toHaveLength(TIMED_BATCH_MESSAGES);
    const counting = countingDb(env as Bindings);
    await deliverTimed(messages, counting.env);
    for (const id of ids) {
      expect((await conversationRow(id))?.status).toBe("resolved");
    }
    // Per message: its rows (1 read), its status changes (1 batch), the CSAT check (1 read per
    // resolve) and the relay's sent mark; the notes go through the rooms, with their own calls.
    // Well under the 1,000 D1 queries a Paid invocation may make.
    expect(counting.counts.calls).toBeLessThanOrEqual(n * 2 + TIMED_BATCH_MESSAGES * 4);
    expect(counting.counts.calls).toBeGreaterThan(0);
  });

  it("with more due than a tick takes, the ticks take turns between accounts: each conversation is sent within a few ticks", async () => {
    // A tick's worth in the first account, two small accounts after it; nothing is resolved
    // between the ticks (a consumer lagging behind, or failing), so all stay due.
    const limit = 4;
    const big = await idleConversations(limit);
    const small = [await idleConversations(2), await idleConversations(2)];
    const now = nowSeconds();
    const ids = [...big.ids, ...small.flatMap((a) => a.ids)];
    const seen = new Set<number>();
    // Every due conversation in the database counts toward the bound, other tests' too.
    const due = (await autoResolveDue(recordingTimed().env, now, 100_000)) + limit;
    const accounts = new Set(
      (await db().select({ a: t.conversations.accountId }).from(t.conversations).all()).map(
        (r) => r.a,
      ),
    ).size;
    const bound = Math.ceil(due / limit) + accounts + 1;
    let ticks = 0;
    while (ids.some((id) => !seen.has(id)) && ticks < bound) {
      const recorded = recordingTimed();
      expect(await autoResolveDue(recorded.env, now, limit)).toBeLessThanOrEqual(limit * 2);
      for (const id of mine(recorded.sent, ids)) {
        seen.add(id);
      }
      ticks++;
    }
    expect(ids.filter((id) => !seen.has(id))).toEqual([]);
    // Before the turns, the first account's backlog filled every tick: the small ones never came.
    expect(small.flatMap((a) => a.ids).every((id) => seen.has(id))).toBe(true);
  });
});
