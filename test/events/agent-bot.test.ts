import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { hmacSha256Hex } from "../../worker/lib/hmac";
import { attachBot, createAgentBot, createInbox } from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import {
  attemptOpenDeliveries,
  outboxRows,
  processEvents,
  type Received,
  recordingOutbound,
} from "../support/factories-webhooks";
import { api, expectError } from "../support/http";

async function deliverAll(accountId: number) {
  const rec = recordingOutbound();
  await processEvents(accountId, 0, { outbound: rec.outbound });
  await attemptOpenDeliveries(accountId, { outbound: rec.outbound });
  return rec.requests;
}

async function expectSignedBy(secret: string, r: Received) {
  const ts = r.headers.get("x-service-timestamp");
  expect(r.headers.get("x-service-signature")).toBe(
    `sha256=${await hmacSha256Hex(secret, `${ts}.${r.body}`)}`,
  );
  expect(() => new Webhook(secret).verify(r.body, Object.fromEntries(r.headers))).not.toThrow();
}

describe("an agent bot conversation, end to end", () => {
  it("hears the visitor, answers with its token, and hands off to humans", async () => {
    const w = await createPublicWorld();
    const botUrl = "https://bot.example.com/parley";
    const bot = await createAgentBot({ accountId: w.account.id, outgoingUrl: botUrl });
    await attachBot(w.account.id, w.inbox.id, bot.id);

    // A visitor starts a conversation: pending while the bot runs the inbox.
    const s = await createPublicConversation(w.base, { name: "Visitor" });
    expect(s.conversation.status).toBe("pending");
    await pub(`${s.path}/messages`, { method: "POST", body: { content: "I need help" } });

    // The bot receives the visitor's message, signed with its own secret.
    const heard = await deliverAll(w.account.id);
    expect(heard.map((r) => [r.url, r.json.event])).toEqual([[botUrl, "message_created"]]);
    const [incoming] = heard as [Received];
    expect(incoming.json).toMatchObject({
      content: "I need help",
      message_type: "incoming",
      sender: { type: "contact" },
      conversation: { id: s.conversation.id, status: "pending" },
    });
    await expectSignedBy(bot.secret, incoming);

    // It answers through the account API with its access token…
    const base = `/api/v1/accounts/${w.account.id}/conversations/${s.conversation.id}`;
    const reply = await api(`${base}/messages`, {
      method: "POST",
      token: bot.token,
      body: { content: "Let me get a human.", message_type: "outgoing" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ sender_type: "AgentBot", sender: { type: "agent_bot" } });
    // …and hands off: pending → open.
    const handoff = await api(`${base}/toggle_status`, {
      method: "POST",
      token: bot.token,
      body: { status: "open" },
    });
    expect(handoff.status).toBe(200);
    expect((await api(base, { token: w.admin.token })).body.status).toBe("open");

    const after = await deliverAll(w.account.id);
    expect(after.map((r) => r.json.event).sort()).toEqual([
      "conversation_opened",
      "conversation_status_changed",
      "message_created",
    ]);
    const opened = after.find((r) => r.json.event === "conversation_opened") as Received;
    expect(opened.json).toMatchObject({
      id: s.conversation.id,
      status: "open",
      changed_attributes: [{ status: { previous_value: "pending", current_value: "open" } }],
    });
    const own = after.find((r) => r.json.event === "message_created") as Received;
    expect(own.json).toMatchObject({ message_type: "outgoing", sender: { type: "agent_bot" } });
    for (const r of after) {
      await expectSignedBy(bot.secret, r);
    }
    // The bot's actions are attributed to it.
    const rows = await outboxRows(w.account.id);
    expect(rows.at(-1)?.payload.performed_by).toEqual({ type: "agent_bot", id: bot.id });
  });

  it("keeps the bot to its inboxes: another inbox's conversation is 404", async () => {
    const w = await createPublicWorld();
    const bot = await createAgentBot({
      accountId: w.account.id,
      outgoingUrl: "https://b.example.com/",
    });
    await attachBot(w.account.id, w.inbox.id, bot.id);
    const other = await createInbox(w.account.id);
    const { conversation } = await createConversationIn(w.account.id, other.id);
    const path = `/api/v1/accounts/${w.account.id}/conversations/${conversation.displayId}`;
    expectError(
      await api(`${path}/messages`, { method: "POST", token: bot.token, body: { content: "hi" } }),
      404,
    );
    expectError(
      await api(`${path}/toggle_status`, {
        method: "POST",
        token: bot.token,
        body: { status: "open" },
      }),
      404,
    );
  });

  it("tells the bot when the visitor opens the widget", async () => {
    const w = await createPublicWorld({ channelType: "Channel::WebWidget" });
    const bot = await createAgentBot({
      accountId: w.account.id,
      outgoingUrl: "https://w.example.com/",
    });
    await attachBot(w.account.id, w.inbox.id, bot.id);
    const s = await createPublicConversation(w.base);
    await pub(`${w.base}/contacts/${s.contact.source_id}/events`, {
      method: "POST",
      body: { name: "webwidget.triggered", event_info: { referer: "https://shop.example/" } },
    });
    const heard = await deliverAll(w.account.id);
    expect(heard.map((r) => r.json.event)).toEqual(["webwidget_triggered"]);
    expect(heard[0]?.json).toMatchObject({
      source_id: s.contact.source_id,
      inbox: { id: w.inbox.id },
      contact: { id: s.contact.id },
      current_conversation: { id: s.conversation.id },
      event_info: { referer: "https://shop.example/" },
    });
  });
});
