import { describe, expect, it } from "vitest";
import { automationListener } from "../../worker/modules/automation-rules/listener";
import { notificationListener } from "../../worker/modules/notifications/listener";
import { addInboxMember, addToAccount, createAgent, createWorld } from "../support/factories";
import { createContact } from "../support/factories-conversations";
import { consume, outboxRows, processEvents } from "../support/factories-webhooks";
import { api } from "../support/http";
import { postStored } from "../support/posted";
import { openSocket } from "../support/ws";

const listeners = [notificationListener];

type Notification = {
  notification_type: string;
  primary_actor_id: number;
  secondary_actor: { id: number } | null;
};

/** An account with a conversation in an inbox two agents work in, assigned to `agent`. */
async function assigned() {
  const w = await createWorld();
  const other = await createAgent(w.account.id);
  await addInboxMember(w.inbox.id, w.agent.id);
  await addInboxMember(w.inbox.id, other.id);
  const contact = await createContact(w.account.id);
  const base = `/api/v1/accounts/${w.account.id}`;
  const created = await api(`${base}/conversations`, {
    method: "POST",
    token: w.admin.token,
    body: { inbox_id: w.inbox.id, contact_id: contact.id, assignee_id: w.agent.id },
  });
  expect(created.status).toBe(200);
  const conversation = `${base}/conversations/${created.body.id}`;
  await processEvents(w.account.id, 0, { listeners });
  return { ...w, other, base, conversation, displayId: created.body.id as number };
}

const lastId = async (accountId: number) => (await outboxRows(accountId)).at(-1)?.id ?? 0;

const notificationsOf = async (base: string, token: string) =>
  (await api(`${base}/notifications`, { token })).body.data.payload as Notification[];

const post = async (path: string, token: string, body: Record<string, unknown>) => {
  const res = await postStored(`${path}/messages`, { method: "POST", token, body });
  expect(res.status).toBe(200);
  return res.body.id as number;
};

describe("notifications of a batch's events (read once per batch)", () => {
  it("several messages of one conversation in one batch: each notifies for its own message, and each frame's count holds its row", async () => {
    const w = await assigned();
    const unreadBefore = (
      await api(`${w.base}/notifications/unread_count`, { token: w.agent.token })
    ).body as number;
    const feed = await openSocket(`${w.base}/live`, { api_access_token: w.agent.token });
    await feed.next("ready");
    const after = await lastId(w.account.id);
    const first = await post(w.conversation, w.admin.token, {
      content: "A customer writes",
      message_type: "incoming",
    });
    const note = await post(w.conversation, w.admin.token, {
      content: `Look [@Other](mention://user/${w.other.id}/Other)`,
      private: true,
    });
    const second = await post(w.conversation, w.admin.token, {
      content: "And again",
      message_type: "incoming",
    });
    const events = await outboxRows(w.account.id, after);
    expect(events.filter((e) => e.name === "message_created")).toHaveLength(3);
    await processEvents(w.account.id, after, { listeners });

    const mine = (await notificationsOf(w.base, w.agent.token)).filter(
      (n) => n.notification_type === "assigned_conversation_new_message",
    );
    expect(mine.map((n) => n.secondary_actor?.id).sort()).toEqual([first, note, second].sort());
    expect(new Set(mine.map((n) => n.primary_actor_id))).toEqual(new Set([w.displayId]));
    const others = await notificationsOf(w.base, w.other.token);
    expect(others.map((n) => [n.notification_type, n.secondary_actor?.id])).toEqual([
      ["conversation_mention", note],
    ]);
    // Each frame's count was read with its own row: three frames, three different counts.
    const frames = [];
    for (let i = 0; i < 3; i++) {
      frames.push(await feed.next("notification.created"));
    }
    expect(frames.map((f) => f.data.unread_count).sort()).toEqual([
      unreadBefore + 1,
      unreadBefore + 2,
      unreadBefore + 3,
    ]);

    // The batch handed over again writes nothing new.
    const total = (await notificationsOf(w.base, w.agent.token)).length;
    await processEvents(w.account.id, after, { listeners });
    expect(await notificationsOf(w.base, w.agent.token)).toHaveLength(total);
    const mentions = (await notificationsOf(w.base, w.other.token)).filter(
      (n) => n.notification_type === "conversation_mention",
    );
    expect(mentions).toHaveLength(1);
    feed.close();
  });

  it("events of two accounts in one batch: each account's conversation, message and settings", async () => {
    const a = await assigned();
    const b = await assigned();
    // The same person works in both accounts and is assigned in both; in A they turned every
    // notification off, in B they keep the defaults.
    const person = a.agent;
    await addToAccount(b.account.id, person.id, "agent");
    await addInboxMember(b.inbox.id, person.id);
    const assign = await api(`${b.conversation}/assignments`, {
      method: "POST",
      token: b.admin.token,
      body: { assignee_id: person.id },
    });
    expect(assign.status).toBe(200);
    const off = await api(`${a.base}/notification_settings`, {
      method: "PATCH",
      token: person.token,
      body: { notification_settings: { selected_email_flags: [], selected_push_flags: [] } },
    });
    expect(off.status).toBe(200);
    const [afterA, afterB] = [await lastId(a.account.id), await lastId(b.account.id)];
    const body = { message_type: "incoming" };
    const inA = await post(a.conversation, a.admin.token, { ...body, content: "A" });
    const inB = await post(b.conversation, b.admin.token, { ...body, content: "B" });
    const rows = [
      ...(await outboxRows(a.account.id, afterA)),
      ...(await outboxRows(b.account.id, afterB)),
    ].sort((x, y) => x.id - y.id);
    expect(rows.map((r) => r.name)).toEqual(["message_created", "message_created"]);
    await consume(
      rows.map((r) => ({ kind: "event" as const, id: r.id })),
      { listeners },
    );
    const newMessage = (n: Notification) =>
      n.notification_type === "assigned_conversation_new_message";
    expect((await notificationsOf(a.base, person.token)).filter(newMessage)).toEqual([]);
    const inBNotes = (await notificationsOf(b.base, person.token)).filter(newMessage);
    expect(inBNotes.map((n) => [n.primary_actor_id, n.secondary_actor?.id])).toEqual([
      [b.displayId, inB],
    ]);
    expect(inA).not.toBe(inB);
  });

  it("what a rule's actions change for an event is what the event's next listeners read, as alone", async () => {
    const w = await createWorld();
    await addInboxMember(w.inbox.id, w.agent.id);
    const contact = await createContact(w.account.id);
    const created = await api(`/api/v1/accounts/${w.account.id}/conversations`, {
      method: "POST",
      token: w.admin.token,
      body: { inbox_id: w.inbox.id, contact_id: contact.id },
    });
    expect(created.status).toBe(200);
    const base = `/api/v1/accounts/${w.account.id}`;
    const rule = await api(`${base}/automation_rules`, {
      method: "POST",
      token: w.admin.token,
      body: {
        name: "Urgent to the agent",
        event_name: "message_created",
        conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["urgent"] }],
        actions: [{ action_name: "assign_agent", action_params: [w.agent.id] }],
      },
    });
    expect(rule.status).toBe(200);
    const conversation = `${base}/conversations/${created.body.id}`;
    const after = await lastId(w.account.id);
    const body = { message_type: "incoming" };
    await post(conversation, w.admin.token, { ...body, content: "hello" });
    const urgent = await post(conversation, w.admin.token, { ...body, content: "urgent please" });
    // One batch: the first event reads the batch's conversations before the rule assigns the
    // agent for the second; the second's notifications still see the agent assigned.
    const rows = (await outboxRows(w.account.id, after)).filter(
      (r) => r.name === "message_created",
    );
    expect(rows).toHaveLength(2);
    await consume(
      rows.map((r) => ({ kind: "event" as const, id: r.id })),
      { listeners: [automationListener, notificationListener] },
    );
    const got = (await notificationsOf(base, w.agent.token)).filter(
      (n) => n.notification_type === "assigned_conversation_new_message",
    );
    expect(got.map((n) => n.secondary_actor?.id)).toContain(urgent);
  });
});
