import { createScheduledController } from "cloudflare:test";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import worker from "../../worker";
import * as t from "../../worker/db/schema";
import { nowSeconds } from "../../worker/lib/time";
import { autoResolveDue, wakeSnoozed } from "../../worker/modules/schedule/service";
import { createAccount, createAdmin, createInbox, db } from "../support/factories";
import { outboxOf } from "../support/factories-automation";
import { conversationRow, createConversation } from "../support/factories-conversations";
import {
  conversationByUuid,
  createPublicConversation,
  createPublicWorld,
} from "../support/factories-public";
import { api } from "../support/http";
import { drain, recordingTimed, tick } from "../support/timed";
import { openSocket } from "../support/ws";

const MINUTE = 60;

/** An account that auto-resolves after `minutes`, with an inbox. */
async function autoResolving(settings: Record<string, unknown>) {
  const account = await createAccount({ settings });
  const inbox = await createInbox(account.id);
  return { account, inbox };
}

const messagesOf = (conversationId: number) =>
  db()
    .select()
    .from(t.messages)
    .where(eq(t.messages.conversationId, conversationId))
    .orderBy(asc(t.messages.seq))
    .all();

const statusRows = async (conversationId: number) =>
  (await outboxOf(conversationId)).filter((r) => r.name === "conversation_status_changed");

describe("auto-resolve (account settings.auto_resolve_after)", () => {
  it("resolves an open conversation idle past the deadline, with Chatwoot's note, then the message", async () => {
    const now = nowSeconds();
    const { account, inbox } = await autoResolving({
      auto_resolve_after: 10,
      auto_resolve_message: "Closing this for now; write again any time.",
    });
    const idle = await createConversation(account.id, inbox.id, {
      lastActivityAt: now - 10 * MINUTE - 1,
    });
    const fresh = await createConversation(account.id, inbox.id, {
      lastActivityAt: now - 10 * MINUTE + 30,
    });
    expect(await tick(autoResolveDue, now)).toBeGreaterThanOrEqual(1);
    expect((await conversationRow(idle.id))?.status).toBe("resolved");
    expect((await conversationRow(fresh.id))?.status).toBe("open");
    const messages = await messagesOf(idle.id);
    expect(messages.map((m) => [m.messageType, m.content])).toEqual([
      [2, "Conversation was marked resolved by system due to 10 minutes of inactivity"],
      [3, "Closing this for now; write again any time."],
    ]);
    expect(messages[1]?.senderId).toBeNull();
    const [row] = await statusRows(idle.id);
    expect(row?.payload).toMatchObject({
      performed_by: { type: "system", id: null },
      changed_attributes: { status: { previous_value: "open", current_value: "resolved" } },
    });
    // The fresh one is due 30 s later, within the next tick.
    await tick(autoResolveDue, now + 31);
    expect((await conversationRow(fresh.id))?.status).toBe("resolved");
  });

  it("words the note in hours or days when the setting is a whole number of them", async () => {
    const now = nowSeconds();
    const { account, inbox } = await autoResolving({ auto_resolve_after: 2 * 1440 });
    const c = await createConversation(account.id, inbox.id, { lastActivityAt: now - 3 * 86400 });
    await tick(autoResolveDue, now);
    const messages = await messagesOf(c.id);
    expect(messages.map((m) => m.content)).toEqual([
      "Conversation was marked resolved by system due to 2 days of inactivity",
    ]);
  });

  it("leaves pending, snoozed and (with ignore_waiting) waiting conversations, and accounts without the setting", async () => {
    const now = nowSeconds();
    const old = now - 3600;
    const { account, inbox } = await autoResolving({
      auto_resolve_after: 10,
      auto_resolve_ignore_waiting: true,
    });
    const pending = await createConversation(account.id, inbox.id, {
      status: "pending",
      lastActivityAt: old,
    });
    const snoozed = await createConversation(account.id, inbox.id, {
      status: "snoozed",
      lastActivityAt: old,
    });
    const waiting = await createConversation(account.id, inbox.id, {
      lastActivityAt: old,
      waitingSince: old,
    });
    const answered = await createConversation(account.id, inbox.id, { lastActivityAt: old });
    const other = await createAccount();
    const otherInbox = await createInbox(other.id);
    const untouched = await createConversation(other.id, otherInbox.id, { lastActivityAt: old });
    await tick(autoResolveDue, now);
    expect((await conversationRow(pending.id))?.status).toBe("pending");
    expect((await conversationRow(snoozed.id))?.status).toBe("snoozed");
    expect((await conversationRow(waiting.id))?.status).toBe("open");
    expect((await conversationRow(answered.id))?.status).toBe("resolved");
    expect((await conversationRow(untouched.id))?.status).toBe("open");
  });

  it("resolves waiting conversations too when ignore_waiting is off", async () => {
    const now = nowSeconds();
    const { account, inbox } = await autoResolving({ auto_resolve_after: 10 });
    const waiting = await createConversation(account.id, inbox.id, {
      lastActivityAt: now - 3600,
      waitingSince: now - 3600,
    });
    await tick(autoResolveDue, now);
    expect((await conversationRow(waiting.id))?.status).toBe("resolved");
  });

  it("two overlapping ticks resolve once: one status event, one note, one message", async () => {
    const now = nowSeconds();
    const { account, inbox } = await autoResolving({
      auto_resolve_after: 10,
      auto_resolve_message: "bye",
    });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await createConversation(account.id, inbox.id, { lastActivityAt: now - 900 })).id);
    }
    await Promise.all([tick(autoResolveDue, now), tick(autoResolveDue, now)]);
    for (const id of ids) {
      expect((await conversationRow(id))?.status).toBe("resolved");
      expect(await statusRows(id)).toHaveLength(1);
      expect((await messagesOf(id)).map((m) => m.messageType)).toEqual([2, 3]);
    }
  });

  it("a conversation that moved since it was read is not resolved (the update is conditional)", async () => {
    const now = nowSeconds();
    const { account, inbox } = await autoResolving({ auto_resolve_after: 10 });
    const c = await createConversation(account.id, inbox.id, { lastActivityAt: now - 900 });
    // A reply lands after the tick's clock was read: the deadline moves past the tick.
    await db()
      .update(t.conversations)
      .set({ lastActivityAt: now - 60 })
      .where(eq(t.conversations.id, c.id));
    await tick(autoResolveDue, now);
    expect((await conversationRow(c.id))?.status).toBe("open");
    expect(await messagesOf(c.id)).toEqual([]);
  });

  it("a conversation an agent reopens restarts its idle clock: the next tick leaves it open", async () => {
    const now = nowSeconds();
    const { account, inbox } = await autoResolving({ auto_resolve_after: 10 });
    const c = await createConversation(account.id, inbox.id, {
      status: "resolved",
      lastActivityAt: now - 86400,
    });
    const admin = await createAdmin(account.id);
    const path = `/api/v1/accounts/${account.id}/conversations/${c.displayId}/toggle_status`;
    const res = await api(path, { method: "POST", token: admin.token, body: { status: "open" } });
    expect(res.status).toBe(200);
    expect((await conversationRow(c.id))?.lastActivityAt).toBeGreaterThanOrEqual(now);
    await tick(autoResolveDue, nowSeconds());
    expect((await conversationRow(c.id))?.status).toBe("open");
    // Still resolved once it has been idle for the setting since the reopen.
    await tick(autoResolveDue, nowSeconds() + 10 * MINUTE + 5);
    expect((await conversationRow(c.id))?.status).toBe("resolved");
  });

  it("the contact's socket sees the status change and both messages live", async () => {
    const w = await createPublicWorld();
    const s = await createPublicConversation(w.base, { name: "Ada" });
    await api(`/api/v1/accounts/${w.account.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { auto_resolve_after: 10, auto_resolve_message: "Resolved for inactivity" },
    });
    const live = await openSocket(`/public/api/v1/inboxes/${s.path}/live`);
    const row = await conversationByUuid(s.conversation.uuid);
    await tick(autoResolveDue, (row?.lastActivityAt ?? 0) + 10 * MINUTE);
    expect((await live.next("conversation.status_changed")).data.status).toBe("resolved");
    const contents = [
      (await live.next("message.created")).data.content,
      (await live.next("message.created")).data.content,
    ];
    expect(contents).toEqual([
      "Conversation was marked resolved by system due to 10 minutes of inactivity",
      "Resolved for inactivity",
    ]);
    live.close();
  });
});

describe("snooze wake-up", () => {
  it("reopens a conversation snoozed until a time at that time, with its note and events", async () => {
    const now = nowSeconds();
    const account = await createAccount();
    const inbox = await createInbox(account.id);
    const c = await createConversation(account.id, inbox.id, {
      status: "snoozed",
      snoozedUntil: now + 120,
      lastActivityAt: now - 86400,
    });
    const untilReply = await createConversation(account.id, inbox.id, { status: "snoozed" });
    await tick(wakeSnoozed, now + 60);
    expect((await conversationRow(c.id))?.status).toBe("snoozed");
    await tick(wakeSnoozed, now + 120);
    const after = await conversationRow(c.id);
    expect(after).toMatchObject({ status: "open", snoozedUntil: null, lastActivityAt: now + 120 });
    expect((await messagesOf(c.id)).map((m) => m.content)).toEqual([
      "Conversation was reopened by system",
    ]);
    const [row] = await statusRows(c.id);
    expect(row?.payload).toMatchObject({
      previous_status: "snoozed",
      changed_attributes: { status: { previous_value: "snoozed", current_value: "open" } },
    });
    // "Until next reply" keeps waiting for the contact.
    expect((await conversationRow(untilReply.id))?.status).toBe("snoozed");
  });

  it("a woken conversation restarts its idle clock: the same tick does not auto-resolve it", async () => {
    const now = nowSeconds();
    const { account, inbox } = await autoResolving({ auto_resolve_after: 10 });
    const c = await createConversation(account.id, inbox.id, {
      status: "snoozed",
      snoozedUntil: now - 5,
      lastActivityAt: now - 86400,
    });
    await tick(wakeSnoozed, now);
    await tick(autoResolveDue, now);
    expect((await conversationRow(c.id))?.status).toBe("open");
  });

  it("two overlapping ticks wake it once", async () => {
    const now = nowSeconds();
    const account = await createAccount();
    const inbox = await createInbox(account.id);
    const c = await createConversation(account.id, inbox.id, {
      status: "snoozed",
      snoozedUntil: now - 1,
    });
    await Promise.all([tick(wakeSnoozed, now), tick(wakeSnoozed, now)]);
    expect(await statusRows(c.id)).toHaveLength(1);
    expect(await messagesOf(c.id)).toHaveLength(1);
  });

  it("runs from the Worker's every-minute cron", async () => {
    const account = await createAccount({ settings: { auto_resolve_after: 10 } });
    const inbox = await createInbox(account.id);
    const now = nowSeconds();
    const snoozed = await createConversation(account.id, inbox.id, {
      status: "snoozed",
      snoozedUntil: now - 1,
    });
    const idle = await createConversation(account.id, inbox.id, { lastActivityAt: now - 3600 });
    const recorded = recordingTimed();
    await worker.scheduled(createScheduledController({ cron: "* * * * *" }), recorded.env);
    await drain(recorded.sent);
    const rows = await db()
      .select({ id: t.conversations.id, status: t.conversations.status })
      .from(t.conversations)
      .where(and(eq(t.conversations.accountId, account.id)))
      .orderBy(asc(t.conversations.id));
    expect(rows).toEqual([
      { id: snoozed.id, status: "open" },
      { id: idle.id, status: "resolved" },
    ]);
  });
});
