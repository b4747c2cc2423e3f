import { describe, expect, it } from "vitest";
import { notificationListener } from "../../../worker/modules/notifications/listener";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { addInboxMember, createAgent, createWorld } from "../../support/factories";
import { createContact } from "../../support/factories-conversations";
import { outboxRows, processEvents } from "../../support/factories-webhooks";
import { api, expectError } from "../../support/http";
import { postStored } from "../../support/posted";
import { openSocket } from "../../support/ws";

const listeners = [notificationListener];

/** An account whose admin created a conversation in an inbox two agents work in. */
async function setup() {
  const w = await createWorld();
  const other = await createAgent(w.account.id);
  await addInboxMember(w.inbox.id, w.agent.id);
  await addInboxMember(w.inbox.id, other.id);
  const contact = await createContact(w.account.id);
  const base = `/api/v1/accounts/${w.account.id}`;
  const created = await api(`${base}/conversations`, {
    method: "POST",
    token: w.admin.token,
    body: { inbox_id: w.inbox.id, contact_id: contact.id },
  });
  expect(created.status).toBe(200);
  const conversation = `${base}/conversations/${created.body.id}`;
  return { ...w, other, base, conversation, displayId: created.body.id as number };
}

const lastId = async (accountId: number) => (await outboxRows(accountId)).at(-1)?.id ?? 0;
const list = (w: { base: string }, token: string) => api(`${w.base}/notifications`, { token });
const types = (res: { body: { data: { payload: { notification_type: string }[] } } }) =>
  res.body.data.payload.map((n) => n.notification_type);

describe("notifications", () => {
  it("an @mention in a private note notifies the agent (count and a live frame), never the author", async () => {
    const w = await setup();
    const feed = await openSocket(`${w.base}/live`, { api_access_token: w.agent.token });
    const otherFeed = await openSocket(`${w.base}/live`, { api_access_token: w.other.token });
    await feed.next("ready");
    await otherFeed.next("ready");
    const after = await lastId(w.account.id);
    const note = await postStored(`${w.conversation}/messages`, {
      method: "POST",
      token: w.admin.token,
      body: {
        content: `Can you look? [@Agent](mention://user/${w.agent.id}/Agent) [@Me](mention://user/${w.admin.id}/Me)`,
        private: true,
      },
    });
    expect(note.status).toBe(200);
    await processEvents(w.account.id, after, { listeners });

    const frame = await feed.next("notification.created");
    expect(frame.data).toMatchObject({
      unread_count: 1,
      notification: {
        notification_type: "conversation_mention",
        primary_actor_id: w.displayId,
        user_id: w.agent.id,
        secondary_actor: { id: note.body.id, type: "message" },
      },
    });
    const res = await list(w, w.agent.token);
    expect(res.body.data.meta).toEqual({ unread_count: 1, count: 1, current_page: 1 });
    expect(types(res)).toEqual(["conversation_mention"]);
    expect((await api(`${w.base}/notifications/unread_count`, { token: w.agent.token })).body).toBe(
      1,
    );
    // The author, who mentioned themselves, and an agent nobody mentioned get nothing.
    expect(types(await list(w, w.admin.token))).toEqual([]);
    expect(types(await list(w, w.other.token))).toEqual([]);
    expect(otherFeed.all("notification.created")).toEqual([]);
    // The mentioned agent now takes part in the conversation.
    const participants = await api(`${w.conversation}/participants`, { token: w.admin.token });
    expect(participants.body.map((p: { id: number }) => p.id)).toEqual([w.agent.id]);

    // An event handled twice notifies once.
    await processEvents(w.account.id, after, { listeners });
    expect((await list(w, w.agent.token)).body.data.meta.count).toBe(1);
    feed.close();
    otherFeed.close();
  });

  it("assignment notifies the new assignee; their next incoming message notifies them too; self-assignment does not", async () => {
    const w = await setup();
    let after = await lastId(w.account.id);
    await api(`${w.conversation}/assignments`, {
      method: "POST",
      token: w.admin.token,
      body: { assignee_id: w.agent.id },
    });
    await processEvents(w.account.id, after, { listeners });
    expect(types(await list(w, w.agent.token))).toEqual(["conversation_assignment"]);

    after = await lastId(w.account.id);
    await postStored(`${w.conversation}/messages`, {
      method: "POST",
      token: w.admin.token,
      body: { content: "A customer writes", message_type: "incoming" },
    });
    await processEvents(w.account.id, after, { listeners });
    expect(types(await list(w, w.agent.token)).sort()).toEqual([
      "assigned_conversation_new_message",
      "conversation_assignment",
    ]);

    // The assignee's own reply does not notify them.
    after = await lastId(w.account.id);
    await postStored(`${w.conversation}/messages`, {
      method: "POST",
      token: w.agent.token,
      body: { content: "On it" },
    });
    await processEvents(w.account.id, after, { listeners });
    expect((await list(w, w.agent.token)).body.data.meta.count).toBe(2);

    after = await lastId(w.account.id);
    await api(`${w.conversation}/assignments`, {
      method: "POST",
      token: w.other.token,
      body: { assignee_id: w.other.id },
    });
    await processEvents(w.account.id, after, { listeners });
    expect(types(await list(w, w.other.token))).toEqual([]);
  });

  it("conversation creation notifies the inbox members who subscribed to it", async () => {
    const w = await createWorld();
    await addInboxMember(w.inbox.id, w.agent.id);
    const base = `/api/v1/accounts/${w.account.id}`;
    const settings = await api(`${base}/notification_settings`, {
      method: "PATCH",
      token: w.agent.token,
      body: {
        notification_settings: {
          selected_email_flags: [],
          selected_push_flags: ["push_conversation_creation"],
        },
      },
    });
    expect(settings.body).toMatchObject({
      user_id: w.agent.id,
      selected_push_flags: ["push_conversation_creation"],
      selected_email_flags: [],
    });
    expect(settings.body.all_push_flags).toContain("push_conversation_mention");
    const outsider = await createAgent(w.account.id); // not a member of the inbox
    const contact = await createContact(w.account.id);
    await api(`${base}/conversations`, {
      method: "POST",
      token: w.admin.token,
      body: { inbox_id: w.inbox.id, contact_id: contact.id },
    });
    await processEvents(w.account.id, 0, { listeners });
    expect(types(await list({ base }, w.agent.token))).toEqual(["conversation_creation"]);
    expect(types(await list({ base }, outsider.token))).toEqual([]);
  });

  it("read, unread, snooze, read_all, delete and destroy_all act on the caller's own only", async () => {
    const w = await setup();
    const after = await lastId(w.account.id);
    for (const who of [w.agent, w.other]) {
      await postStored(`${w.conversation}/messages`, {
        method: "POST",
        token: w.admin.token,
        body: { content: `[@x](mention://user/${who.id}/x) and again`, private: true },
      });
    }
    await postStored(`${w.conversation}/messages`, {
      method: "POST",
      token: w.admin.token,
      body: { content: `[@x](mention://user/${w.agent.id}/x)`, private: true },
    });
    await processEvents(w.account.id, after, { listeners });
    const mine = (await list(w, w.agent.token)).body.data.payload as { id: number }[];
    const theirs = (await list(w, w.other.token)).body.data.payload as { id: number }[];
    // The agent was mentioned twice, then the participant rule gives one note each time at most.
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const [first, second] = mine as [{ id: number }, { id: number }];
    const one = (id: number) => `${w.base}/notifications/${id}`;

    const read = await api(one(first.id), { method: "PATCH", token: w.agent.token });
    expect(read.body.read_at).toEqual(expect.any(Number));
    const unread = await api(`${one(first.id)}/unread`, { method: "POST", token: w.agent.token });
    expect(unread.body.read_at).toBeNull();
    const later = Math.floor(Date.now() / 1000) + 3600;
    const snoozed = await api(`${one(second.id)}/snooze`, {
      method: "POST",
      token: w.agent.token,
      body: { snoozed_until: new Date(later * 1000).toISOString() },
    });
    expect(snoozed.body.snoozed_until).toBe(later);
    const shown = (await list(w, w.agent.token)).body.data.payload.map((n: { id: number }) => n.id);
    expect(shown).not.toContain(second.id);

    // Another user's notification is not found, and stays as it was.
    const foreign = theirs[0] as { id: number };
    for (const [method, suffix] of [
      ["PATCH", ""],
      ["POST", "/unread"],
      ["DELETE", ""],
    ] as const) {
      expectError(await api(`${one(foreign.id)}${suffix}`, { method, token: w.agent.token }), 404);
    }
    expectError(
      await api(`${one(foreign.id)}/snooze`, {
        method: "POST",
        token: w.agent.token,
        body: { snoozed_until: "not a time" },
      }),
      404,
    );
    expectError(
      await api(`${one(first.id)}/snooze`, {
        method: "POST",
        token: w.agent.token,
        body: { snoozed_until: "not a time" },
      }),
      422,
    );

    await api(`${w.base}/notifications/read_all`, { method: "POST", token: w.agent.token });
    expect((await api(`${w.base}/notifications/unread_count`, { token: w.agent.token })).body).toBe(
      0,
    );
    expect((await list(w, w.other.token)).body.data.meta.unread_count).toBe(theirs.length);

    await api(`${w.base}/notifications/destroy_all?type=read`, {
      method: "POST",
      token: w.agent.token,
    });
    expect((await list(w, w.agent.token)).body.data.meta.count).toBe(0);
    expect((await list(w, w.other.token)).body.data.meta.count).toBe(theirs.length);
    expect((await api(one(foreign.id), { method: "DELETE", token: w.other.token })).status).toBe(
      200,
    );
  });

  it("settings refuse unknown flags", async () => {
    const w = await createWorld();
    const url = `/api/v1/accounts/${w.account.id}/notification_settings`;
    expectError(
      await api(url, {
        method: "PATCH",
        token: w.agent.token,
        body: { selected_push_flags: ["push_everything"] },
      }),
      422,
    );
    const res = await api(url, { token: w.agent.token });
    expect(res.body.selected_push_flags).toContain("push_conversation_mention");
  });
});

describe("participants", () => {
  it("adds, replaces and removes participants who may see the inbox", async () => {
    const w = await setup();
    const outsider = await createAgent(w.account.id);
    const url = `${w.conversation}/participants`;
    const ids = (res: { body: { id: number }[] }) => res.body.map((p) => p.id).sort();
    const added = await api(url, {
      method: "POST",
      token: w.agent.token,
      body: { user_ids: [w.agent.id, w.admin.id] },
    });
    expect(ids(added)).toEqual([w.admin.id, w.agent.id].sort());
    expectError(
      await api(url, { method: "POST", token: w.agent.token, body: { user_ids: [outsider.id] } }),
      422,
    );
    const other = await createWorld();
    expectError(
      await api(url, {
        method: "POST",
        token: w.agent.token,
        body: { user_ids: [other.admin.id] },
      }),
      422,
    );
    const replaced = await api(url, {
      method: "PATCH",
      token: w.agent.token,
      body: { user_ids: [w.other.id] },
    });
    expect(ids(replaced)).toEqual([w.other.id]);
    const removed = await api(url, {
      method: "DELETE",
      token: w.agent.token,
      body: { user_ids: [w.other.id] },
    });
    expect(removed.body).toEqual([]);
    // An agent outside the inbox cannot reach the conversation at all.
    expectError(await api(url, { token: outsider.token }), 404);
  });
});

describeAuthMatrix("GET notifications", {
  method: "GET",
  path: (w) => `/api/v1/accounts/${w.account.id}/notifications`,
});
describeAuthMatrix("POST notifications/read_all", {
  method: "POST",
  path: (w) => `/api/v1/accounts/${w.account.id}/notifications/read_all`,
});
describeAuthMatrix("GET notification_settings", {
  method: "GET",
  path: (w) => `/api/v1/accounts/${w.account.id}/notification_settings`,
});
