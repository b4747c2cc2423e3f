import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../worker/env";
import type { ConsumerOptions } from "../../worker/events/consumer";
import { countingDb } from "../support/counting-db";
import {
  addInboxMember,
  createAccount,
  createAdmin,
  createAgent,
  createInbox,
} from "../support/factories";
import { createConversationIn } from "../support/factories-conversations";
import { createPublicConversation, createPublicWorld, pub } from "../support/factories-public";
import {
  consume,
  createWebhook,
  deliveryRows,
  outboxRows,
  recordingOutbound,
} from "../support/factories-webhooks";
import { api } from "../support/http";
import { postStored } from "../support/posted";

/**
 * An agent's messages in one conversation of an API inbox with no webhook, rule or bot (the
 * realtime bench's room): the events of a queue batch share their reads.
 */
async function agentMessages(n: number, opts: { participant?: boolean } = {}) {
  const account = await createAccount();
  const admin = await createAdmin(account.id);
  const inbox = await createInbox(account.id);
  const { conversation } = await createConversationIn(account.id, inbox.id);
  const base = `/api/v1/accounts/${account.id}/conversations/${conversation.displayId}`;
  if (opts.participant) {
    const agent = await createAgent(account.id);
    await addInboxMember(inbox.id, agent.id);
    const res = await api(`${base}/participants`, {
      method: "POST",
      token: admin.token,
      body: { user_ids: [agent.id] },
    });
    expect(res.status).toBe(200);
  }
  const after = (await outboxRows(account.id)).at(-1)?.id ?? 0;
  for (let i = 0; i < n; i++) {
    const res = await postStored(`${base}/messages`, {
      token: admin.token,
      body: { content: `m${i}` },
    });
    expect(res.status).toBe(200);
  }
  const rows = await outboxRows(account.id, after);
  return rows.filter((r) => r.name === "message_created").map((r) => r.id);
}

/** D1 calls the registered listeners make for one batch of `ids`. */
async function callsFor(ids: number[], opts: ConsumerOptions = {}) {
  const counting = countingDb(env as Bindings);
  const result = await consume(
    ids.map((id) => ({ kind: "event" as const, id })),
    opts,
    counting.env,
  );
  expect(result.acked).toBe(ids.length);
  return counting.counts.calls;
}

describe("the consumer's listeners read D1 per batch, not per event", () => {
  it("a batch of 40 agent messages in one conversation costs a few D1 calls, not a few per event", async () => {
    const ids = await agentMessages(40);
    expect(ids).toHaveLength(40);
    const calls = await callsFor(ids);
    console.log(`D1 calls for 40 message_created events (no receivers): ${calls}`);
    expect(calls).toBeLessThanOrEqual(12);
  });

  it("contacts' messages with a webhook, an API inbox's webhook_url and a greeting: the reads are per batch, the writes per event", async () => {
    const w = await createPublicWorld({
      greetingEnabled: true,
      greetingMessage: "Hi there",
      webhookUrl: "https://inbox.example/hook",
    });
    await createWebhook(w.admin.token, w.account.id, {
      url: "https://hooks.example/parley",
      subscriptions: ["message_created"],
    });
    const after = (await outboxRows(w.account.id)).at(-1)?.id ?? 0;
    // Four conversations, ten messages each.
    for (let c = 0; c < 4; c++) {
      const { path } = await createPublicConversation(w.base, { name: `Ada ${c}` });
      for (let i = 0; i < 10; i++) {
        const res = await pub(`${path}/messages`, { method: "POST", body: { content: `m${i}` } });
        expect(res.status).toBe(200);
      }
    }
    const ids = (await outboxRows(w.account.id, after))
      .filter((r) => r.name === "message_created")
      .map((r) => r.id)
      .slice(0, 40);
    expect(ids).toHaveLength(40);
    const recorder = recordingOutbound();
    const calls = await callsFor(ids, { outbound: recorder.outbound });
    console.log(
      `D1 calls for 40 contact message_created events (webhook, webhook_url, greeting): ${calls}`,
    );
    // Each event still writes its deliveries (one call) and checks its greeting (per event:
    // an earlier event of the batch may have sent it); the reads behind them are per batch.
    expect(calls).toBeLessThanOrEqual(160);
    const deliveries = await deliveryRows(w.account.id);
    const byEvent = new Set(deliveries.map((d) => `${d.eventId}:${d.targetType}`));
    expect(byEvent.size).toBe(80);
  });

  it("with automation rules that match nothing: every rule is evaluated against facts read per batch", async () => {
    const account = await createAccount();
    const admin = await createAdmin(account.id);
    const inbox = await createInbox(account.id);
    for (const word of ["refund", "invoice"]) {
      const rule = await api(`/api/v1/accounts/${account.id}/automation_rules`, {
        method: "POST",
        token: admin.token,
        body: {
          name: `Tag ${word}`,
          event_name: "message_created",
          conditions: [{ attribute_key: "content", filter_operator: "contains", values: [word] }],
          actions: [{ action_name: "add_label", action_params: [word] }],
        },
      });
      expect(rule.status).toBe(200);
    }
    const { conversation } = await createConversationIn(account.id, inbox.id);
    const path = `/api/v1/accounts/${account.id}/conversations/${conversation.displayId}/messages`;
    const after = (await outboxRows(account.id)).at(-1)?.id ?? 0;
    for (let i = 0; i < 20; i++) {
      const body = { content: `hello ${i}`, message_type: "incoming" };
      expect((await postStored(path, { token: admin.token, body })).status).toBe(200);
    }
    const ids = (await outboxRows(account.id, after))
      .filter((r) => r.name === "message_created")
      .map((r) => r.id);
    expect(ids).toHaveLength(20);
    const calls = await callsFor(ids);
    console.log(`D1 calls for 20 message_created events (2 rules, no match): ${calls}`);
    expect(calls).toBeLessThanOrEqual(20);
  });
});
