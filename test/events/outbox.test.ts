import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as t from "../../worker/db/schema";
import { commit } from "../../worker/events/commit";
import { createDeps } from "../../worker/events/deps";
import { loadConversationFor } from "../../worker/modules/conversations/access";
import { toggleStatus } from "../../worker/modules/conversations/service.actions";
import { createAccount, createAdmin, createInbox, db } from "../support/factories";
import { createContact } from "../support/factories-conversations";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import { outboxRows } from "../support/factories-webhooks";
import { api, expectError } from "../support/http";
import { openSocket } from "../support/ws";

/** An account with an admin and an API inbox, and a conversation created through the API. */
async function world() {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  const inbox = await createInbox(account.id);
  const contact = await createContact(account.id);
  const base = `/api/v1/accounts/${account.id}`;
  const res = await api(`${base}/conversations`, {
    method: "POST",
    token: admin.token,
    body: { inbox_id: inbox.id, contact_id: contact.id },
  });
  expect(res.status).toBe(200);
  const path = `${base}/conversations/${res.body.id}`;
  return { account, admin, inbox, contact, base, path, displayId: res.body.id as number };
}

const names = (rows: { name: string }[]) => rows.map((r) => r.name);
const lastId = async (accountId: number) => (await outboxRows(accountId)).at(-1)?.id ?? 0;

describe("outbox rows written with each change", () => {
  it("records conversation_created with the acting user and the first conversation_seq", async () => {
    const w = await world();
    const rows = await outboxRows(w.account.id);
    expect(names(rows)).toEqual(["conversation_created"]);
    expect(rows[0]).toMatchObject({ conversationSeq: 1 });
    expect(rows[0]?.payload).toMatchObject({
      performed_by: { type: "user", id: w.admin.id },
      inbox_id: w.inbox.id,
      contact_id: w.contact.id,
      conversation_id: rows[0]?.conversationId,
      origin: "http://parley.test",
    });
  });

  it("records a status change as conversation_status_changed then conversation_updated", async () => {
    const w = await world();
    const after = await lastId(w.account.id);
    const res = await api(`${w.path}/toggle_status`, {
      method: "POST",
      token: w.admin.token,
      body: { status: "resolved" },
    });
    expect(res.status).toBe(200);
    const rows = await outboxRows(w.account.id, after);
    expect(names(rows)).toEqual(["conversation_status_changed", "conversation_updated"]);
    expect(rows.map((r) => r.conversationSeq)).toEqual([2, 3]);
    for (const row of rows) {
      expect(row.payload.changed_attributes).toMatchObject({
        status: { previous_value: "open", current_value: "resolved" },
      });
    }
  });

  it("records conversation_updated alone for other attributes, and nothing when nothing changed", async () => {
    const w = await world();
    const after = await lastId(w.account.id);
    await api(`${w.path}/toggle_priority`, {
      method: "POST",
      token: w.admin.token,
      body: { priority: "high" },
    });
    await api(`${w.path}/toggle_priority`, {
      method: "POST",
      token: w.admin.token,
      body: { priority: "high" },
    });
    await api(`${w.path}/labels`, {
      method: "POST",
      token: w.admin.token,
      body: { labels: ["vip"] },
    });
    await api(`${w.path}/labels`, {
      method: "POST",
      token: w.admin.token,
      body: { labels: ["vip"] },
    });
    const rows = await outboxRows(w.account.id, after);
    expect(names(rows)).toEqual(["conversation_updated", "conversation_updated"]);
    expect(rows[0]?.payload.changed_attributes).toEqual({
      priority: { previous_value: null, current_value: "high" },
    });
    expect(rows[1]?.payload.changed_attributes).toEqual({
      label_list: { previous_value: [], current_value: ["vip"] },
    });
  });

  it("records message_created for replies and private notes, message_updated for edits", async () => {
    const w = await world();
    const after = await lastId(w.account.id);
    const reply = await api(`${w.path}/messages`, {
      method: "POST",
      token: w.admin.token,
      body: { content: "hello" },
    });
    await api(`${w.path}/messages`, {
      method: "POST",
      token: w.admin.token,
      body: { content: "internal", private: true },
    });
    const edit = await api(`${w.path}/messages/${reply.body.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { content: "hello!" },
    });
    expect(edit.status).toBe(200);
    const rows = await outboxRows(w.account.id, after);
    expect(names(rows)).toEqual(["message_created", "message_created", "message_updated"]);
    expect(rows.map((r) => r.conversationSeq)).toEqual([2, 3, 4]);
    expect(rows[0]?.payload).toMatchObject({ message_id: reply.body.id, is_private: false });
    expect(rows[1]?.payload).toMatchObject({ is_private: true });
    expect(rows[2]?.payload).toMatchObject({ message_id: reply.body.id });
  });

  it("records contact_created, and contact_updated only when something changed", async () => {
    const w = await world();
    const after = await lastId(w.account.id);
    const created = await api(`${w.base}/contacts`, {
      method: "POST",
      token: w.admin.token,
      body: { inbox_id: w.inbox.id, name: "Ada", custom_attributes: {} },
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
    const patch = (body: unknown) =>
      api(`${w.base}/contacts/${id}`, { method: "PATCH", token: w.admin.token, body });
    await patch({ name: "Ada" });
    await patch({ name: "Ada L." });
    await patch({ additional_attributes: { city: "London" } });
    await patch({ additional_attributes: { city: "London" } });
    const rows = await outboxRows(w.account.id, after);
    expect(names(rows)).toEqual(["contact_created", "contact_updated", "contact_updated"]);
    expect(rows[0]).toMatchObject({ conversationId: null, conversationSeq: null });
    expect(rows[0]?.payload).toMatchObject({ contact_id: id });
    expect(rows[1]?.payload.changed_attributes).toEqual({
      name: { previous_value: "Ada", current_value: "Ada L." },
    });
    expect(Object.keys(rows[2]?.payload.changed_attributes ?? {})).toEqual([
      "additional_attributes",
    ]);
  });

  it("writes nothing for a refused request", async () => {
    const w = await world();
    const after = await lastId(w.account.id);
    expectError(
      await api(`${w.path}/toggle_status`, {
        method: "POST",
        token: w.admin.token,
        body: { status: "closed" },
      }),
      422,
    );
    expectError(
      await api(`${w.base}/contacts`, {
        method: "POST",
        token: w.admin.token,
        body: { inbox_id: w.inbox.id, email: w.contact.email },
      }),
      422,
    );
    expect(await outboxRows(w.account.id, after)).toEqual([]);
  });
});

describe("visitor events", () => {
  it("records typing rows alone, and a reopen's status events with the incoming message", async () => {
    const w = await createPublicWorld();
    const s = await createPublicConversation(w.base);
    const after = await lastId(w.account.id);
    await pub(`${s.path}/toggle_typing`, { method: "POST", body: { typing_status: "on" } });
    await pub(`${s.path}/toggle_typing`, { method: "POST", body: { typing_status: "off" } });
    await pub(`${s.path}/toggle_status`, { method: "POST" });
    await pub(`${s.path}/messages`, { method: "POST", body: { content: "back again" } });
    const rows = await outboxRows(w.account.id, after);
    expect(names(rows)).toEqual([
      "conversation_typing_on",
      "conversation_typing_off",
      "conversation_status_changed",
      "conversation_updated",
      "message_created",
      "conversation_status_changed",
      "conversation_updated",
    ]);
    expect(rows.map((r) => r.conversationSeq)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(rows[0]?.payload).toMatchObject({
      typer: { type: "contact", id: s.contact.id },
      is_private: false,
      performed_by: { type: "contact", id: s.contact.id },
    });
    expect(rows[5]?.payload.changed_attributes).toMatchObject({
      status: { previous_value: "resolved", current_value: "open" },
    });
  });

  it("records webwidget_triggered from the widget's events endpoint", async () => {
    const w = await createPublicWorld({ channelType: "Channel::WebWidget" });
    const s = await createPublicConversation(w.base);
    const after = await lastId(w.account.id);
    const path = `${w.base}/contacts/${s.contact.source_id}/events`;
    const info = { referer: "https://shop.example/", widget_language: "en" };
    const res = await pub(path, {
      method: "POST",
      body: { name: "webwidget.triggered", event_info: info },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expectError(await pub(path, { method: "POST", body: { name: "something.else" } }), 422);
    const rows = await outboxRows(w.account.id, after);
    expect(names(rows)).toEqual(["webwidget_triggered"]);
    expect(rows[0]?.payload).toMatchObject({ event_info: info, contact_id: s.contact.id });
  });

  it("adds Chatwoot's event_info.browser from the visitor's User-Agent unless the widget sent one", async () => {
    const w = await createPublicWorld({ channelType: "Channel::WebWidget" });
    const s = await createPublicConversation(w.base);
    const after = await lastId(w.account.id);
    const path = `${w.base}/contacts/${s.contact.source_id}/events`;
    const chrome =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
    const own = { browser_name: "Own", browser_version: "1" };
    for (const [event_info, ua] of [
      [{ referer: "https://shop.example/" }, chrome],
      [{ browser: own }, chrome],
      [{}, ""],
    ] as const) {
      const res = await pub(path, {
        method: "POST",
        headers: { "user-agent": ua },
        body: { name: "webwidget.triggered", event_info },
      });
      expect(res.status).toBe(200);
    }
    const rows = await outboxRows(w.account.id, after);
    expect(rows.map((r) => r.payload.event_info)).toEqual([
      {
        referer: "https://shop.example/",
        browser: {
          browser_name: "Chrome",
          browser_version: "126.0.0.0",
          device_name: "desktop",
          platform_name: "Windows",
          platform_version: "NT 10.0",
        },
      },
      { browser: own },
      {},
    ]);
  });
});

describe("atomicity and attribution", () => {
  it("writes no outbox row when the change in its batch fails", async () => {
    const account = await createAccount();
    const contact = await createContact(account.id);
    const deps = createDeps(env);
    const clash = db()
      .insert(t.contacts)
      .values({ accountId: account.id, name: "x", email: contact.email });
    await expect(
      commit(
        deps,
        [clash],
        [{ name: "contact.created", accountId: account.id, data: { contact_id: contact.id } }],
      ),
    ).rejects.toThrow();
    expect(await outboxRows(account.id)).toEqual([]);
  });

  it("attributes events to an explicit performer (automation rules)", async () => {
    const w = await world();
    const after = await lastId(w.account.id);
    const deps = createDeps(env, { performedBy: { type: "automation_rule", id: 42 } });
    const scope = {
      deps,
      account: w.account,
      actor: { kind: "automation" as const, ruleId: 42 },
      role: "administrator" as const,
    };
    const row = await loadConversationFor(scope, w.displayId);
    await toggleStatus(scope, row, { status: "pending" });
    await deps.events.flush();
    const rows = await outboxRows(w.account.id, after);
    expect(rows[0]?.payload.performed_by).toEqual({ type: "automation_rule", id: 42 });
    // flush relayed them: sent to the queue and marked.
    expect(rows.every((r) => r.sentAt !== null)).toBe(true);
  });

  it("relays a request's rows to the queue after the response", async () => {
    const w = await world();
    await vi.waitFor(
      async () => {
        const [row] = await db()
          .select()
          .from(t.eventOutbox)
          .where(eq(t.eventOutbox.accountId, w.account.id));
        expect(row?.sentAt).not.toBeNull();
      },
      { timeout: 15_000, interval: 50 },
    );
  });

  it("records typing sent over a socket once per change, the expiry's off included", async () => {
    const w = await createPublicWorld();
    const { contact, conversation, path } = await createPublicConversation(w.base);
    const after = await lastId(w.account.id);
    const visitor = await openSocket(`/public/api/v1/inboxes/${path}/live`);
    const agent = await openSocket(
      `/api/v1/accounts/${w.account.id}/conversations/${conversation.id}/live`,
      { api_access_token: w.admin.token },
    );
    visitor.send({ type: "typing", on: true });
    visitor.send({ type: "typing", on: true }); // a renewal: no news
    await agent.next("typing.on");
    await agent.next("typing.off"); // the test TTL lets it expire
    agent.send({ type: "typing", on: true, private: true });
    agent.send({ type: "typing", on: false, private: true });
    await visitor.next("ready");
    await vi.waitFor(async () => expect((await outboxRows(w.account.id, after)).length).toBe(4), {
      timeout: 15_000,
    });
    const rows = await outboxRows(w.account.id, after);
    expect(names(rows)).toEqual([
      "conversation_typing_on",
      "conversation_typing_off",
      "conversation_typing_on",
      "conversation_typing_off",
    ]);
    expect(rows[0]?.payload).toMatchObject({
      typer: { type: "contact", id: contact.id },
      is_private: false,
      performed_by: { type: "contact", id: contact.id },
    });
    expect(rows[2]?.payload).toMatchObject({
      typer: { type: "user", id: w.admin.id },
      is_private: true,
    });
    expect(rows.every((r) => r.conversationId === rows[0]?.conversationId)).toBe(true);
    visitor.close();
    agent.close();
  });

  it("has the room send message events to the queue and mark them sent, alone or with the next write", async () => {
    const w = await world();
    const after = await lastId(w.account.id);
    const post = (content: string) =>
      api(`${w.path}/messages`, { token: w.admin.token, body: { content } });
    expect((await post("first")).status).toBe(200);
    // A few seconds of quiet: the first mark goes out on its own.
    await vi.waitFor(
      async () => expect((await outboxRows(w.account.id, after))[0]?.sentAt).not.toBeNull(),
      { timeout: 20_000, interval: 100 },
    );
    await Promise.all(["a", "b", "c"].map(post));
    await vi.waitFor(
      async () => {
        const rows = await outboxRows(w.account.id, after);
        expect(rows.filter((r) => r.name === "message_created")).toHaveLength(4);
        expect(rows.every((r) => r.sentAt !== null)).toBe(true);
      },
      { timeout: 20_000, interval: 100 },
    );
  }, 60_000);
});
