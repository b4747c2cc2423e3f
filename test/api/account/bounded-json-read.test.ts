import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createWorld } from "../../support/factories";
import { createDefinition } from "../../support/factories-contacts";
import { createContact, createConversation } from "../../support/factories-conversations";
import {
  attemptOpenDeliveries,
  createWebhook,
  deliveryRows,
  processEvents,
  recordingOutbound,
} from "../../support/factories-webhooks";
import { api } from "../../support/http";

/** Stored text no write path accepts any more: 10,000 levels, 5,000 keys. */
const deepText = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const wideText = (keys: number) =>
  JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i])));

/** Straight into D1, past every schema. */
const store = (table: string, column: string, id: number, text: string) =>
  env.DB.prepare(`UPDATE ${table} SET ${column} = ? WHERE id = ?`).bind(text, id).run();

const condition = (attribute_key: string, filter_operator: string, values: unknown[]) => ({
  attribute_key,
  filter_operator,
  values,
  query_operator: null,
});

const depthOf = (value: unknown) => {
  let depth = 0;
  let v = value;
  while (typeof v === "object" && v !== null) {
    depth++;
    v = Object.values(v)[0];
  }
  return depth;
};

describe("oversized JSON already stored", () => {
  it("conversations list, filter and show answer 200, cut down to the bounds", async () => {
    const w = await createWorld();
    const base = `/api/v1/accounts/${w.account.id}`;
    const def = await createDefinition(w.account.id, { attributeModel: "conversation_attribute" });
    const deep = await createConversation(w.account.id, w.inbox.id);
    const wide = await createConversation(w.account.id, w.inbox.id);
    await store("conversations", "additional_attributes", deep.id, deepText(10_000));
    await store("conversations", "custom_attributes", deep.id, deepText(10_000));
    await store("conversations", "additional_attributes", wide.id, wideText(5_000));
    await store("conversations", "custom_attributes", wide.id, wideText(5_000));

    const list = await api(`${base}/conversations?status=all`, { token: w.admin.token });
    expect(list.status).toBe(200);
    expect(list.body.data.payload).toHaveLength(2);
    for (const filter of [
      [condition("status", "equal_to", ["open"])],
      [condition("browser_language", "equal_to", ["en"])],
      [condition(def.attributeKey, "equal_to", ["x"])],
    ]) {
      const res = await api(`${base}/conversations/filter`, {
        token: w.admin.token,
        body: { payload: filter },
      });
      expect(res.status, JSON.stringify(filter)).toBe(200);
    }
    const show = await api(`${base}/conversations/${deep.displayId}`, { token: w.admin.token });
    expect(show.status).toBe(200);
    expect(depthOf(show.body.additional_attributes)).toBeLessThanOrEqual(16);
    const shown = await api(`${base}/conversations/${wide.displayId}`, { token: w.admin.token });
    expect(shown.status).toBe(200);
    expect(Object.keys(shown.body.additional_attributes).length).toBeLessThanOrEqual(200);

    // Writing to such a conversation works too.
    const updated = await api(`${base}/conversations/${deep.displayId}/custom_attributes`, {
      token: w.admin.token,
      body: { custom_attributes: { [def.attributeKey]: "x" } },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBeLessThan(300);
  });

  it("contacts show, list, filter and update answer 200", async () => {
    const w = await createWorld();
    const base = `/api/v1/accounts/${w.account.id}`;
    const deep = await createContact(w.account.id);
    const wide = await createContact(w.account.id);
    // (No deep additional_attributes: the contact indexes on json_extract refuse to store it.)
    await store("contacts", "custom_attributes", deep.id, deepText(10_000));
    await store("contacts", "additional_attributes", wide.id, wideText(5_000));
    expect((await api(`${base}/contacts`, { token: w.admin.token })).status).toBe(200);
    expect((await api(`${base}/contacts/${deep.id}`, { token: w.admin.token })).status).toBe(200);
    const filtered = await api(`${base}/contacts/filter`, {
      token: w.admin.token,
      body: { payload: [condition("city", "equal_to", ["Paris"])] },
    });
    expect(filtered.status, JSON.stringify(filtered.body)).toBe(200);
    const updated = await api(`${base}/contacts/${deep.id}`, {
      method: "PUT",
      token: w.admin.token,
      body: { additional_attributes: { city: "Paris" } },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.payload.additional_attributes.city).toBe("Paris");
  });

  it("agent bots list and show answer 200 with an oversized bot_config", async () => {
    const w = await createWorld();
    const base = `/api/v1/accounts/${w.account.id}`;
    const res0 = await api(`${base}/agent_bots`, {
      token: w.admin.token,
      body: { name: "Bot", outgoing_url: "https://bot.example.com/hook" },
    });
    expect(res0.status).toBe(200);
    await store("agent_bots", "bot_config", res0.body.id, deepText(10_000));
    const list = await api(`${base}/agent_bots`, { token: w.admin.token });
    expect(list.status).toBe(200);
    const show = await api(`${base}/agent_bots/${res0.body.id}`, { token: w.admin.token });
    expect(show.status).toBe(200);
  });

  it("a change to such a conversation commits, and its webhook payload is built and sent", async () => {
    const w = await createWorld();
    const base = `/api/v1/accounts/${w.account.id}`;
    await createWebhook(w.admin.token, w.account.id, {
      url: "https://receiver-bounded.example.com/hook",
      subscriptions: ["conversation_status_changed", "message_created"],
    });
    const deep = await createConversation(w.account.id, w.inbox.id);
    await store("conversations", "additional_attributes", deep.id, deepText(10_000));
    const toggled = await api(`${base}/conversations/${deep.displayId}/toggle_status`, {
      token: w.admin.token,
      body: { status: "resolved" },
    });
    expect(toggled.status).toBe(200);
    const message = await api(`${base}/conversations/${deep.displayId}/messages`, {
      token: w.admin.token,
      body: { content: "hi" },
    });
    expect(message.status).toBe(200);
    const rec = recordingOutbound();
    await processEvents(w.account.id, 0, { outbound: rec.outbound });
    expect((await deliveryRows(w.account.id)).length).toBeGreaterThan(0);
    await attemptOpenDeliveries(w.account.id, { outbound: rec.outbound });
    expect(rec.requests.map((r) => r.json.event)).toContain("conversation_status_changed");
    for (const d of await deliveryRows(w.account.id)) {
      expect(d.status).toBe("succeeded");
    }
  });
});
