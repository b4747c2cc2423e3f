import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { DeliveryListSchema, DeliverySchema } from "../../worker/modules/webhooks/schema";
import {
  ContactWebhookSchema,
  ConversationWebhookSchema,
  MessageWebhookSchema,
} from "../../worker/modules/webhooks/schema.payloads";
import { createInbox } from "../support/factories";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import {
  attemptOpenDeliveries,
  createWebhook,
  deliveryRows,
  outboxRows,
  processEvents,
  recordingOutbound,
} from "../support/factories-webhooks";
import { api } from "../support/http";

let seq = 0;
const url = (name: string) => `https://${name}-${++seq}.example.com/hook`;

/** Runs the pipeline for everything the account recorded so far; returns what was received. */
async function deliverAll(accountId: number, answer?: Parameters<typeof recordingOutbound>[0]) {
  const rec = recordingOutbound(answer);
  await processEvents(accountId, 0, { outbound: rec.outbound });
  await attemptOpenDeliveries(accountId, { outbound: rec.outbound });
  return rec.requests;
}

describe("payloads", () => {
  it("sends Chatwoot's bodies: event plus the record's webhook data", async () => {
    const w = await createPublicWorld();
    await createWebhook(w.admin.token, w.account.id, {
      url: url("all"),
      subscriptions: [
        "contact_created",
        "conversation_created",
        "message_created",
        "conversation_status_changed",
        "conversation_typing_on",
      ],
    });
    const s = await createPublicConversation(w.base, { name: "Grace", email: "grace@example.com" });
    // Records are loaded when the event is processed (as Chatwoot's listeners do): in steps.
    const received = await deliverAll(w.account.id);
    await pub(`${s.path}/toggle_typing`, { method: "POST", body: { typing_status: "on" } });
    await pub(`${s.path}/messages`, { method: "POST", body: { content: "Hi there" } });
    await pub(`${s.path}/toggle_status`, { method: "POST" });
    received.push(...(await deliverAll(w.account.id)));
    const byEvent = new Map(received.map((r) => [r.json.event, r.json]));
    expect([...byEvent.keys()].sort()).toEqual([
      "contact_created",
      "conversation_created",
      "conversation_status_changed",
      "conversation_typing_on",
      "message_created",
    ]);
    const contact = ContactWebhookSchema.parse(byEvent.get("contact_created"));
    expect(contact).toMatchObject({ name: "Grace", email: "grace@example.com" });
    expect(contact.account).toEqual({ id: w.account.id, name: w.account.name });
    const conversation = ConversationWebhookSchema.parse(byEvent.get("conversation_created"));
    expect(conversation).toMatchObject({
      id: s.conversation.id,
      inbox_id: w.inbox.id,
      status: "open",
    });
    expect(byEvent.get("conversation_created").conversation_seq).toBe(1);
    const message = MessageWebhookSchema.parse(byEvent.get("message_created"));
    expect(message).toMatchObject({
      content: "Hi there",
      message_type: "incoming",
      private: false,
      sender: { type: "contact", name: "Grace" },
      inbox: { id: w.inbox.id, name: w.inbox.name },
      conversation: { id: s.conversation.id },
    });
    expect(message.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(byEvent.get("conversation_status_changed").changed_attributes).toEqual([
      { status: { previous_value: "open", current_value: "resolved" } },
    ]);
    expect(byEvent.get("conversation_typing_on")).toMatchObject({
      user: { type: "contact", name: "Grace" },
      is_private: false,
      conversation: { id: s.conversation.id },
    });
    // Deliveries run side by side; conversation_seq tells the receiver the order of events.
    const seqOf = (event: string) => byEvent.get(event).conversation_seq;
    expect(
      ["conversation_created", "conversation_typing_on", "message_created"].map(seqOf),
    ).toEqual([1, 2, 3]);
    expect(seqOf("conversation_status_changed")).toBe(4);
    expect(byEvent.get("contact_created").conversation_seq).toBeUndefined();
  });
});

describe("who receives what", () => {
  it("sends a webhook only its subscriptions, and an inbox-limited one only that inbox's events", async () => {
    const w = await createPublicWorld();
    const otherInbox = await createInbox(w.account.id);
    const messagesOnly = await createWebhook(w.admin.token, w.account.id, {
      url: url("messages"),
      subscriptions: ["message_created"],
    });
    const elsewhere = await createWebhook(w.admin.token, w.account.id, {
      url: url("elsewhere"),
      inbox_id: otherInbox.id,
    });
    const s = await createPublicConversation(w.base);
    await pub(`${s.path}/messages`, { method: "POST", body: { content: "one" } });
    await deliverAll(w.account.id);
    const rows = await deliveryRows(w.account.id);
    expect(rows.map((r) => [r.targetId, r.event])).toEqual([[messagesOnly.id, "message_created"]]);
    expect(rows.some((r) => r.targetId === elsewhere.id)).toBe(false);
  });

  it("sends an API inbox's webhook_url its events signed with the inbox secret, private notes excepted", async () => {
    const inboxUrl = url("api-inbox");
    const w = await createPublicWorld({ webhookUrl: inboxUrl });
    const s = await createPublicConversation(w.base);
    const path = `/api/v1/accounts/${w.account.id}/conversations/${s.conversation.id}/messages`;
    await api(path, { method: "POST", token: w.admin.token, body: { content: "public reply" } });
    await api(path, {
      method: "POST",
      token: w.admin.token,
      body: { content: "note", private: true },
    });
    const received = await deliverAll(w.account.id);
    expect(received.map((r) => [r.url, r.json.event])).toEqual([
      [inboxUrl, "conversation_created"],
      [inboxUrl, "message_created"],
    ]);
    expect(received[1]?.json.content).toBe("public reply");
    for (const r of received) {
      expect(() =>
        new Webhook(w.inbox.hmacToken).verify(r.body, Object.fromEntries(r.headers)),
      ).not.toThrow();
    }
    // Contact events are the account's, not the inbox's.
    expect((await outboxRows(w.account.id)).map((r) => r.name)).toContain("contact_created");
  });
});

describe("the delivery log", () => {
  it("lists deliveries newest first with their attempts, and replays one or all failed", async () => {
    const w = await createPublicWorld();
    const hook = await createWebhook(w.admin.token, w.account.id, {
      url: url("log"),
      subscriptions: ["contact_created", "conversation_created"],
    });
    await createPublicConversation(w.base);
    // The receiver refuses everything at first (400: no retry).
    const received = await deliverAll(w.account.id, () => new Response("no", { status: 400 }));
    expect(received).toHaveLength(2);
    const base = `/api/v1/accounts/${w.account.id}/webhooks/${hook.id}`;
    const log = await api(`${base}/deliveries`, { token: w.admin.token });
    expect(log.status).toBe(200);
    const page = DeliveryListSchema.parse(log.body);
    expect(page.meta).toEqual({ count: 2, current_page: 1 });
    expect(page.payload.map((d) => d.event)).toEqual(["conversation_created", "contact_created"]);
    expect(page.payload[0]).toMatchObject({
      status: "failed",
      attempts: 1,
      last_status_code: 400,
      last_error: "HTTP 400",
      next_attempt_at: null,
      attempt_log: [{ status_code: 400, error: "HTTP 400" }],
    });
    expect(page.payload[0]?.last_latency_ms).toEqual(expect.any(Number));
    const failed = await api(`${base}/deliveries?status=succeeded`, { token: w.admin.token });
    expect(failed.body.meta.count).toBe(0);

    // Replay one by its X-Service-Delivery id: same id, a second attempt in its log.
    const first = page.payload[1] as (typeof page.payload)[number];
    const replay = await api(`${base}/deliveries/${first.delivery_id}/redeliver`, {
      method: "POST",
      token: w.admin.token,
    });
    expect(replay.status).toBe(200);
    expect(DeliverySchema.parse(replay.body)).toMatchObject({ status: "pending", attempts: 0 });
    const again = recordingOutbound();
    await attemptOpenDeliveries(w.account.id, { outbound: again.outbound });
    expect(again.requests.map((r) => r.headers.get("x-service-delivery"))).toEqual([
      first.delivery_id,
    ]);
    const after = await api(`${base}/deliveries`, { token: w.admin.token });
    const replayed = after.body.payload.find((d: { id: number }) => d.id === first.id);
    expect(replayed).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(replayed.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([
      400, 200,
    ]);

    // Replay every failed one (one is left).
    const all = await api(`${base}/redeliver_failed`, { method: "POST", token: w.admin.token });
    expect(all.body).toEqual({ redelivered: 1 });
    const rest = recordingOutbound();
    await attemptOpenDeliveries(w.account.id, { outbound: rest.outbound });
    expect(rest.requests.map((r) => r.json.event)).toEqual(["conversation_created"]);
    const none = await api(`${base}/redeliver_failed`, { method: "POST", token: w.admin.token });
    expect(none.body).toEqual({ redelivered: 0 });
  });

  it("pages by 25", async () => {
    const w = await createPublicWorld();
    const hook = await createWebhook(w.admin.token, w.account.id, {
      url: url("pages"),
      subscriptions: ["contact_created"],
    });
    for (let i = 0; i < 27; i++) {
      await pub(`${w.base}/contacts`, { method: "POST", body: { name: `P${i}` } });
    }
    await processEvents(w.account.id, 0, { outbound: recordingOutbound().outbound });
    const base = `/api/v1/accounts/${w.account.id}/webhooks/${hook.id}/deliveries`;
    const one = await api(base, { token: w.admin.token });
    const two = await api(`${base}?page=2`, { token: w.admin.token });
    expect(one.body.meta.count).toBe(27);
    expect(one.body.payload).toHaveLength(25);
    expect(two.body.payload).toHaveLength(2);
    expect(one.body.payload[0].id).toBeGreaterThan(two.body.payload[0].id);
  });
});
