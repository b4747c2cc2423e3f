import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "../../worker/events/names";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import {
  attemptOpenDeliveries,
  createWebhook,
  outboxRows,
  processEvents,
  recordingOutbound,
} from "../support/factories-webhooks";
import { api } from "../support/http";

const NOTE = "agents-only-note-7f3a";
const NOTE_EDITED = "agents-only-note-edited-7f3a";
const CONTACT_EVENTS = ["contact_created", "contact_updated"];

let seq = 0;
const url = (name: string) => `https://${name}-${++seq}.example.com/hook`;

/**
 * An API inbox with a webhook_url and an account webhook hearing everything; a conversation in
 * which every webhook event happens, a private note (edited) being its latest message when the
 * events are processed (records are read then, as Chatwoot does).
 */
async function conversationEndingWithANote() {
  const inboxUrl = url("api-inbox");
  const w = await createPublicWorld({ webhookUrl: inboxUrl });
  const hook = await createWebhook(w.admin.token, w.account.id, {
    url: url("account"),
    subscriptions: WEBHOOK_EVENTS,
  });
  const s = await createPublicConversation(w.base, { name: "Grace" });
  const base = `/api/v1/accounts/${w.account.id}/conversations/${s.conversation.id}`;
  const token = w.admin.token;
  const send = (body: unknown) => api(`${base}/messages`, { method: "POST", token, body });
  const edit = (id: number, content: string) =>
    api(`${base}/messages/${id}`, { method: "PATCH", token, body: { content } });
  await pub(`${s.path}/messages`, { method: "POST", body: { content: "hello" } });
  const reply = await send({ content: "public reply" });
  await edit(reply.body.id, "public reply, edited");
  await pub(`${s.path}/toggle_typing`, { method: "POST", body: { typing_status: "on" } });
  await pub(`${s.path}/toggle_typing`, { method: "POST", body: { typing_status: "off" } });
  for (const typing_status of ["on", "off"]) {
    await api(`${base}/toggle_typing_status`, {
      method: "POST",
      token,
      body: { typing_status, is_private: true },
    });
  }
  const note = await send({ content: NOTE, private: true });
  expect(note.status).toBe(200);
  await edit(note.body.id, NOTE_EDITED);
  await api(`${base}/toggle_status`, { method: "POST", token, body: { status: "resolved" } });
  await api(`${base}/toggle_priority`, { method: "POST", token, body: { priority: "high" } });
  await pub(`${w.base}/contacts/${s.contact.source_id}`, {
    method: "PATCH",
    body: { name: "Grace Hopper" },
  });
  await pub(`${w.base}/contacts/${s.contact.source_id}/events`, {
    method: "POST",
    body: { name: "webwidget.triggered", event_info: {} },
  });
  const rec = recordingOutbound();
  await processEvents(w.account.id, 0, { outbound: rec.outbound });
  await attemptOpenDeliveries(w.account.id, { outbound: rec.outbound });
  return { w, s, inboxUrl, hookUrl: hook.url, received: rec.requests };
}

describe("private notes never reach the contact's side", () => {
  it("keeps them out of every event an API inbox's webhook_url gets, nested anywhere", async () => {
    const { w, inboxUrl, received } = await conversationEndingWithANote();
    // The walk covers every webhook event there is.
    const recorded = new Set((await outboxRows(w.account.id)).map((r) => r.name));
    expect([...recorded].sort()).toEqual([...WEBHOOK_EVENTS].sort());
    const toInbox = received.filter((r) => r.url === inboxUrl);
    // Every event of the inbox reaches it (contact events are the account's) ...
    expect([...new Set(toInbox.map((r) => r.json.event))].sort()).toEqual(
      WEBHOOK_EVENTS.filter((e) => !CONTACT_EVENTS.includes(e)).sort(),
    );
    // ... and none carries the note, its edit, or the agents' private typing.
    for (const r of toInbox) {
      expect(r.body).not.toContain("agents-only-note");
      expect(r.json.is_private ?? false).toBe(false);
      expect(r.json.private ?? false).toBe(false);
    }
    // A conversation's last message, for the contact's side, is the last one it may see.
    const conversations = toInbox.flatMap((r) =>
      r.json.event.startsWith("conversation_") && !r.json.event.includes("typing")
        ? [r.json]
        : [r.json.conversation ?? r.json.current_conversation],
    );
    expect(conversations.length).toBeGreaterThan(0);
    for (const c of conversations) {
      expect(c.messages.map((m: { content: string }) => m.content)).toEqual([
        "public reply, edited",
      ]);
    }
  });

  it("still sends them to the account's own webhooks, as Chatwoot does", async () => {
    const { hookUrl, received } = await conversationEndingWithANote();
    const toHook = received.filter((r) => r.url === hookUrl);
    const notes = toHook.filter((r) => r.json.event.startsWith("message_") && r.json.private);
    expect(notes.map((r) => [r.json.event, r.json.content]).sort()).toEqual([
      ["message_created", NOTE_EDITED],
      ["message_updated", NOTE_EDITED],
    ]);
    const status = toHook.find((r) => r.json.event === "conversation_status_changed");
    expect(status?.json.messages[0]?.content).toBe(NOTE_EDITED);
    expect(toHook.filter((r) => r.json.is_private === true)).toHaveLength(2);
  });

  it("keeps them out of the public API's conversations and messages", async () => {
    const { w, s } = await conversationEndingWithANote();
    const conversations = `${w.base}/contacts/${s.contact.source_id}/conversations`;
    const reads = await Promise.all([
      pub(conversations),
      pub(`${conversations}/${s.conversation.id}`),
      pub(`${conversations}/${s.conversation.id}/messages`),
    ]);
    for (const res of reads) {
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain("agents-only-note");
    }
    expect(JSON.stringify(reads[2]?.body)).toContain("public reply, edited");
  });
});
