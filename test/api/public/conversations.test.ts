import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { EventBus } from "../../../worker/events/bus";
import { createDeps } from "../../../worker/events/deps";
import type { CommittedEvent } from "../../../worker/events/types";
import {
  resolvePublicContact,
  resolvePublicInbox,
} from "../../../worker/http/middleware/auth-contact";
import {
  loadOwnConversation,
  markSeenByContact,
  setContactTyping,
} from "../../../worker/modules/conversations/service.public";
import { attachBot, createAgentBot } from "../../support/factories";
import { createContact } from "../../support/factories-contacts";
import {
  conversationRow,
  defineConversationAttribute,
} from "../../support/factories-conversations";
import {
  contactInboxRow,
  conversationByUuid,
  createPublicContact,
  createPublicConversation,
  createPublicWorld,
  pub,
} from "../../support/factories-public";
import { outboxRows } from "../../support/factories-webhooks";
import { api, expectError } from "../../support/http";

async function session() {
  const w = await createPublicWorld();
  const contact = await createPublicContact(w.base, { name: "Visitor" });
  return { ...w, contact, path: `${w.base}/contacts/${contact.source_id}/conversations` };
}

describe("POST conversations (E19)", () => {
  it("creates an open conversation in the contact's session with no body at all", async () => {
    const s = await session();
    const res = await pub(s.path, { method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      inbox_id: s.inbox.id,
      status: "open",
      contact_last_seen_at: 0,
      agent_last_seen_at: 0,
      agent_last_seen_seq: null,
      messages: [],
      contact: expect.objectContaining({ id: s.contact.id, name: "Visitor", label_list: [] }),
    });
    expect(res.body.contact).not.toHaveProperty("pubsub_token");
    const row = await conversationByUuid(res.body.uuid);
    const ci = await contactInboxRow(s.contact.source_id);
    expect(row).toMatchObject({
      displayId: res.body.id,
      contactId: s.contact.id,
      contactInboxId: ci?.id,
      accountId: s.account.id,
    });
    // Agents see it on the account API.
    const agentView = await api(`/api/v1/accounts/${s.account.id}/conversations/${res.body.id}`, {
      token: s.admin.token,
    });
    expect(agentView.status).toBe(200);
    expect(agentView.body.meta.sender.id).toBe(s.contact.id);
  });

  it("accepts {}, an empty JSON body, an empty form and an empty multipart body", async () => {
    const s = await session();
    const bodies: { raw?: BodyInit; body?: unknown; headers?: Record<string, string> }[] = [
      { body: {} },
      { raw: "", headers: { "content-type": "application/json" } },
      { raw: "  ", headers: { "content-type": "application/json; charset=utf-8" } },
      { raw: "", headers: { "content-type": "application/x-www-form-urlencoded" } },
      { raw: new FormData() },
    ];
    const ids = new Set<number>();
    for (const opts of bodies) {
      const res = await pub(s.path, { method: "POST", ...opts });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.add(res.body.id);
    }
    expect(ids.size).toBe(bodies.length);
    expectError(await pub(s.path, { method: "POST", raw: "{nope" }), 400, "malformed_json");
  });

  it("validates conversation custom attributes (JSON and form)", async () => {
    const s = await session();
    await defineConversationAttribute(s.account.id, "order_id", "number");
    const ok = await pub(s.path, {
      method: "POST",
      body: { custom_attributes: { order_id: "7" } },
    });
    expect(ok.status).toBe(200);
    expect((await conversationByUuid(ok.body.uuid))?.customAttributes).toEqual({ order_id: 7 });
    const form = new FormData();
    form.append("custom_attributes[order_id]", "8");
    const viaForm = await pub(s.path, { method: "POST", raw: form });
    expect(viaForm.status).toBe(200);
    expect((await conversationByUuid(viaForm.body.uuid))?.customAttributes).toEqual({
      order_id: 8,
    });
    const before = (await pub(s.path)).body.length;
    for (const custom_attributes of [{ order_id: "seven" }, { unknown_key: 1 }, "x"]) {
      expectError(await pub(s.path, { method: "POST", body: { custom_attributes } }), 422);
    }
    expect((await pub(s.path)).body.length).toBe(before);
  });

  it("starts pending when a bot runs the inbox, resolved for a blocked contact", async () => {
    const s = await session();
    const bot = await createAgentBot({ accountId: s.account.id });
    await attachBot(s.account.id, s.inbox.id, bot.id);
    expect((await pub(s.path, { method: "POST" })).body.status).toBe("pending");

    const w = await createPublicWorld();
    await createContact(w.account.id, { identifier: "blocked-1", blocked: true });
    const blocked = await createPublicContact(w.base, { identifier: "blocked-1" });
    const res = await pub(`${w.base}/contacts/${blocked.source_id}/conversations`, {
      method: "POST",
    });
    expect(res.body.status).toBe("resolved");
    expect(res.body.contact.blocked).toBe(true);
  });

  it("works for web-widget inboxes", async () => {
    const w = await createPublicWorld({ channelType: "Channel::WebWidget" });
    const { conversation } = await createPublicConversation(w.base);
    expect(conversation).toMatchObject({ inbox_id: w.inbox.id, status: "open" });
  });
});

describe("GET conversations", () => {
  it("lists the contact's conversations, oldest first, each with its messages", async () => {
    const s = await session();
    const first = (await pub(s.path, { method: "POST" })).body;
    const second = (await pub(s.path, { method: "POST" })).body;
    await pub(`${s.path}/${second.id}/messages`, { method: "POST", body: { content: "hello" } });
    const res = await pub(s.path);
    expect(res.status).toBe(200);
    expect(res.body.map((c: { id: number }) => c.id)).toEqual([first.id, second.id]);
    expect(res.body[0].messages).toEqual([]);
    expect(res.body[1].messages).toMatchObject([{ content: "hello", message_type: 0 }]);
    expect(res.body[1].contact.last_activity_at).toEqual(expect.any(String));
  });

  it("lists nothing for a fresh contact", async () => {
    const s = await session();
    expect((await pub(s.path)).body).toEqual([]);
  });

  it("shows one conversation; unknown and malformed ids are 404", async () => {
    const s = await session();
    const created = (await pub(s.path, { method: "POST" })).body;
    const res = await pub(`${s.path}/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    expectError(await pub(`${s.path}/999999`), 404, "not_found");
    expectError(await pub(`${s.path}/abc`), 404, "not_found");
  });

  it("shows a verified contact every verified session's conversations in the inbox", async () => {
    const w = await createPublicWorld();
    const { identifierHash } = await import("../../support/factories-public");
    const hash = await identifierHash(w.inbox.hmacToken, "member-9");
    const verified = { identifier: "member-9", identifier_hash: hash };
    const a = await createPublicConversation(w.base, verified);
    const b = await createPublicConversation(w.base, verified);
    const unverified = await createPublicConversation(w.base, { identifier: "member-9" });
    expect(b.contact.id).toBe(a.contact.id);
    expect(unverified.contact.id).toBe(a.contact.id);
    const list = (base: string) => pub(`${w.base}/contacts/${base}/conversations`);
    const seenByA = (await list(a.contact.source_id)).body.map((c: { id: number }) => c.id);
    expect(seenByA).toEqual([a.conversation.id, b.conversation.id]);
    const seenByU = (await list(unverified.contact.source_id)).body.map(
      (c: { id: number }) => c.id,
    );
    expect(seenByU).toEqual([unverified.conversation.id]);
    expectError(
      await pub(
        `${w.base}/contacts/${unverified.contact.source_id}/conversations/${a.conversation.id}`,
      ),
      404,
    );
    expect(
      (await pub(`${w.base}/contacts/${a.contact.source_id}/conversations/${b.conversation.id}`))
        .status,
    ).toBe(200);
  });
});

describe("conversation actions", () => {
  it("toggle_status resolves, and stays resolved when repeated", async () => {
    const s = await session();
    const created = (await pub(s.path, { method: "POST" })).body;
    for (let i = 0; i < 2; i++) {
      const res = await pub(`${s.path}/${created.id}/toggle_status`, { method: "POST" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: created.id, status: "resolved" });
    }
    const row = await conversationByUuid(created.uuid);
    expect(row?.status).toBe("resolved");
    // Writing again reopens it (Chatwoot parity).
    await pub(`${s.path}/${created.id}/messages`, { method: "POST", body: { content: "back" } });
    expect((await pub(`${s.path}/${created.id}`)).body.status).toBe("open");
  });

  it("toggle_typing answers {} for on and off; anything else is 422", async () => {
    const s = await session();
    const created = (await pub(s.path, { method: "POST" })).body;
    const path = `${s.path}/${created.id}/toggle_typing`;
    for (const typing_status of ["on", "off"]) {
      const res = await pub(path, { method: "POST", body: { typing_status } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    }
    for (const body of [{}, { typing_status: "maybe" }]) {
      expectError(await pub(path, { method: "POST", body }), 422);
    }
  });

  it("update_last_seen records when the contact last looked", async () => {
    const s = await session();
    const created = (await pub(s.path, { method: "POST" })).body;
    const res = await pub(`${s.path}/${created.id}/update_last_seen`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const row = await conversationByUuid(created.uuid);
    expect(row?.contactLastSeenAt).toEqual(expect.any(Number));
    expect((await pub(`${s.path}/${created.id}`)).body.contact_last_seen_at).toBe(
      row?.contactLastSeenAt,
    );
  });
});

describe("events of the visitor's actions", () => {
  function recordingScope(committed: CommittedEvent[]) {
    const deps = createDeps(env);
    const events: EventBus = {
      ...deps.events,
      committed: (items, ids) => {
        committed.push(...items);
        deps.events.committed(items, ids);
      },
    };
    return { ...deps, events };
  }

  it("records typing on/off with the contact as typer, and conversation.read", async () => {
    const w = await createPublicWorld();
    const { contact, conversation } = await createPublicConversation(w.base, { name: "Typer" });
    const committed: CommittedEvent[] = [];
    const deps = recordingScope(committed);
    const { inbox, account } = await resolvePublicInbox(deps.db, w.base);
    const actor = await resolvePublicContact(deps.db, inbox, contact.source_id);
    const scope = { deps, account, actor, role: "contact" as const, origin: "http://x" };
    const row = await loadOwnConversation(scope, conversation.id);
    await setContactTyping(scope, row, true);
    await setContactTyping(scope, row, false);
    await markSeenByContact(scope, row);
    expect(committed.map((c) => c.event.name)).toEqual(["conversation.read"]);
    expect(committed[0]?.conversation?.id).toBe(row.id);
    const read = committed[0]?.event.data as { by: string; at: number };
    expect(read).toMatchObject({ by: "contact", at: expect.any(Number) });
    expect((await conversationRow(row.id))?.contactLastSeenAt).toBe(read.at);
    // Typing is the room's to record: one row per change, the contact as typer.
    const typing = async () =>
      (await outboxRows(account.id)).filter((r) => r.name.startsWith("conversation_typing"));
    await vi.waitFor(async () => expect(await typing()).toHaveLength(2), {
      timeout: 15_000,
      interval: 50,
    });
    const [on, off] = await typing();
    expect([on?.name, off?.name]).toEqual(["conversation_typing_on", "conversation_typing_off"]);
    expect(on?.payload).toMatchObject({
      conversation_id: row.id,
      typer: { type: "contact", id: contact.id, name: "Typer" },
      is_private: false,
    });
  });
});
