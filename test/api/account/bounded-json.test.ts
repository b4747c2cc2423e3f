import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createInbox, createWorld } from "../../support/factories";
import { createContact, createConversation } from "../../support/factories-conversations";
import { createPublicConversation, createPublicWorld, pub } from "../../support/factories-public";
import { type ApiResult, api, expectError } from "../../support/http";

/**
 * Every free-form JSON field of a request is bounded (docs/api.md "Limits"): 16 levels,
 * 200 keys per object (1,000 in all), strings of 10,000 characters, 64 KiB as JSON.
 * Values are written as JSON text: a 10,000-level object is never built in the test.
 */
const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const wide = (keys: number) =>
  JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i])));
const longString = JSON.stringify({ note: "x".repeat(100_000) });
const deepPath = (field: string) => `${field}${".a".repeat(16)}`;

/** `body` with `"$V"` replaced by the raw JSON text `value`. */
const withValue = (body: unknown, value: string) => JSON.stringify(body).replace('"$V"', value);

const count = async (table: string, where: string, id: number) =>
  (
    await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where} = ?`)
      .bind(id)
      .first<{ n: number }>()
  )?.n ?? -1;

type Case = {
  name: string;
  /** The field's path in `details`. */
  field: string;
  /** Accepts plain and 16-level objects (fields with no per-key definitions). */
  acceptsFreeForm: boolean;
  setup: () => Promise<{
    send: (value: string) => Promise<ApiResult>;
    /** What a refused request must leave unchanged. */
    stored: () => Promise<unknown>;
  }>;
};

const accountCase = (
  name: string,
  field: string,
  acceptsFreeForm: boolean,
  make: (
    w: Awaited<ReturnType<typeof createWorld>>,
    base: string,
  ) => Promise<{
    method?: string;
    path: string;
    body: unknown;
    stored: () => Promise<unknown>;
  }>,
): Case => ({
  name,
  field,
  acceptsFreeForm,
  setup: async () => {
    const w = await createWorld();
    const r = await make(w, `/api/v1/accounts/${w.account.id}`);
    return {
      send: (value) =>
        api(r.path, {
          method: r.method ?? "POST",
          token: w.admin.token,
          raw: withValue(r.body, value),
        }),
      stored: r.stored,
    };
  },
});

const row = async (sql: string, id: number) => env.DB.prepare(sql).bind(id).first();

const cases: Case[] = [
  accountCase(
    "POST contacts additional_attributes",
    "additional_attributes",
    true,
    async (w, base) => ({
      path: `${base}/contacts`,
      body: { name: "Alice", inbox_id: w.inbox.id, additional_attributes: "$V" },
      stored: () => count("contacts", "account_id", w.account.id),
    }),
  ),
  accountCase("POST contacts custom_attributes", "custom_attributes", false, async (w, base) => ({
    path: `${base}/contacts`,
    body: { name: "Alice", inbox_id: w.inbox.id, custom_attributes: "$V" },
    stored: () => count("contacts", "account_id", w.account.id),
  })),
  accountCase(
    "PUT contacts additional_attributes",
    "additional_attributes",
    true,
    async (w, base) => {
      const c = await createContact(w.account.id);
      return {
        method: "PUT",
        path: `${base}/contacts/${c.id}`,
        body: { additional_attributes: "$V" },
        stored: () => row("SELECT additional_attributes FROM contacts WHERE id = ?", c.id),
      };
    },
  ),
  accountCase(
    "POST conversations additional_attributes",
    "additional_attributes",
    true,
    async (w, base) => {
      const c = await createContact(w.account.id);
      return {
        path: `${base}/conversations`,
        body: { inbox_id: w.inbox.id, contact_id: c.id, additional_attributes: "$V" },
        stored: () => count("conversations", "account_id", w.account.id),
      };
    },
  ),
  accountCase(
    "PATCH conversations additional_attributes",
    "additional_attributes",
    true,
    async (w, base) => {
      const c = await createConversation(w.account.id, w.inbox.id);
      return {
        method: "PATCH",
        path: `${base}/conversations/${c.displayId}`,
        body: { additional_attributes: "$V" },
        stored: () => row("SELECT additional_attributes FROM conversations WHERE id = ?", c.id),
      };
    },
  ),
  accountCase(
    "POST conversations custom_attributes",
    "custom_attributes",
    false,
    async (w, base) => {
      const c = await createConversation(w.account.id, w.inbox.id);
      return {
        path: `${base}/conversations/${c.displayId}/custom_attributes`,
        body: { custom_attributes: "$V" },
        stored: () => row("SELECT custom_attributes FROM conversations WHERE id = ?", c.id),
      };
    },
  ),
  accountCase("POST messages content_attributes", "content_attributes", true, async (w, base) => {
    const c = await createConversation(w.account.id, w.inbox.id);
    return {
      path: `${base}/conversations/${c.displayId}/messages`,
      body: { content: "hi", content_attributes: "$V" },
      stored: () => count("messages", "conversation_id", c.id),
    };
  }),
  accountCase("POST agent_bots bot_config", "bot_config", true, async (w, base) => ({
    path: `${base}/agent_bots`,
    body: { name: "Bot", bot_config: "$V" },
    stored: () => count("agent_bots", "account_id", w.account.id),
  })),
  accountCase(
    "POST inboxes channel.additional_attributes",
    "channel.additional_attributes",
    true,
    async (w, base) => ({
      path: `${base}/inboxes`,
      body: { name: "Inbox", channel: { type: "api", additional_attributes: "$V" } },
      stored: () => count("inboxes", "account_id", w.account.id),
    }),
  ),
  accountCase(
    "PATCH inboxes pre_chat_form_options",
    "channel.pre_chat_form_options",
    true,
    async (w, base) => {
      const inbox = await createInbox(w.account.id, { channelType: "Channel::WebWidget" });
      return {
        method: "PATCH",
        path: `${base}/inboxes/${inbox.id}`,
        body: { channel: { pre_chat_form_options: "$V" } },
        stored: () => row("SELECT pre_chat_form_options FROM inboxes WHERE id = ?", inbox.id),
      };
    },
  ),
  {
    name: "public POST contacts custom_attributes",
    field: "custom_attributes",
    acceptsFreeForm: false,
    setup: async () => {
      const w = await createPublicWorld();
      return {
        send: (value) =>
          pub(`${w.base}/contacts`, {
            method: "POST",
            raw: withValue({ custom_attributes: "$V" }, value),
          }),
        stored: () => count("contacts", "account_id", w.account.id),
      };
    },
  },
  {
    name: "public POST conversations custom_attributes",
    field: "custom_attributes",
    acceptsFreeForm: false,
    setup: async () => {
      const w = await createPublicWorld();
      const s = await createPublicConversation(w.base);
      return {
        send: (value) =>
          pub(`${w.base}/contacts/${s.contact.source_id}/conversations`, {
            method: "POST",
            raw: withValue({ custom_attributes: "$V" }, value),
          }),
        stored: () => count("conversations", "account_id", w.account.id),
      };
    },
  },
  {
    name: "public POST events event_info",
    field: "event_info",
    acceptsFreeForm: true,
    setup: async () => {
      const w = await createPublicWorld({ channelType: "Channel::WebWidget" });
      const s = await createPublicConversation(w.base);
      return {
        send: (value) =>
          pub(`${w.base}/contacts/${s.contact.source_id}/events`, {
            method: "POST",
            raw: withValue({ name: "webwidget.triggered", event_info: "$V" }, value),
          }),
        stored: () => count("event_outbox", "account_id", w.account.id),
      };
    },
  },
];

const refusals: [string, string, (field: string) => string][] = [
  ["10,000 levels", deep(10_000), deepPath],
  ["17 levels", deep(17), deepPath],
  ["5,000 keys", wide(5_000), (field) => field],
  ["a 100 KB string", longString, (field) => `${field}.note`],
];

describe.each(cases)("$name", ({ field, setup }) => {
  it.each(refusals)(
    "refuses %s with a 422 naming the path, storing nothing",
    async (_, value, path) => {
      const s = await setup();
      const before = await s.stored();
      const err = expectError(await s.send(value), 422, "validation_failed");
      expect(err.details.map((d) => d.path)).toContain(path(field));
      expect(await s.stored()).toEqual(before);
    },
  );
});

// custom_attributes take only the account's defined keys, so only the free-form fields accept
// arbitrary objects.
describe.each(cases.filter((c) => c.acceptsFreeForm))("$name", ({ setup }) => {
  it("accepts 16 levels and a plain object", async () => {
    const s = await setup();
    for (const value of [
      deep(16),
      JSON.stringify({ plan: "pro", seats: [1, 2], nested: { ok: true } }),
    ]) {
      const res = await s.send(value);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }
  });
});

describe("automation rule action_params", () => {
  it("refuses a 17-level param", async () => {
    const w = await createWorld();
    const rule = {
      name: "r",
      event_name: "message_created",
      conditions: [
        { attribute_key: "message_type", filter_operator: "equal_to", values: ["incoming"] },
      ],
      actions: [{ action_name: "send_webhook_event", action_params: ["$V"] }],
    };
    const before = await count("automation_rules", "account_id", w.account.id);
    const err = expectError(
      await api(`/api/v1/accounts/${w.account.id}/automation_rules`, {
        token: w.admin.token,
        raw: withValue(rule, deep(10_000)),
      }),
      422,
    );
    expect(err.details[0]?.path).toMatch(/^actions\.0\.action_params\.0(\.a)+$/);
    expect(await count("automation_rules", "account_id", w.account.id)).toBe(before);
  });
});
