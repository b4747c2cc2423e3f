import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createWorld } from "../../support/factories";
import { deliveryRows, outboxRows, processEvents } from "../../support/factories-webhooks";
import { api, expectError } from "../../support/http";

type World = Awaited<ReturnType<typeof createWorld>>;

const base = (w: World) => `/api/v1/accounts/${w.account.id}/integrations`;
const createHook = (w: World, body: unknown, token = w.admin.token) =>
  api(`${base(w)}/hooks`, { method: "POST", token, body });
const patchHook = (w: World, id: number, body: unknown) =>
  api(`${base(w)}/hooks/${id}`, { method: "PATCH", token: w.admin.token, body });
const webhooks = async (w: World) =>
  (await api(`/api/v1/accounts/${w.account.id}/webhooks`, { token: w.admin.token })).body.payload
    .webhooks as { id: number; url: string; disabled_at: number | null }[];

/** An event of the account (a contact created) through the consumer: the URLs it went to. */
async function deliveredTo(w: World) {
  const after = (await outboxRows(w.account.id)).at(-1)?.id ?? 0;
  const before = (await deliveryRows(w.account.id)).length;
  const r = await api(`/api/v1/accounts/${w.account.id}/contacts`, {
    token: w.admin.token,
    body: { name: "Casey", inbox_id: w.inbox.id },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  await processEvents(w.account.id, after);
  return (await deliveryRows(w.account.id)).slice(before).map((d) => d.url);
}

describe("integrations", () => {
  it("lists the webhook app; a hook is a webhook of the account and receives its events", async () => {
    const w = await createWorld();
    const empty = await api(`${base(w)}/apps`, { token: w.admin.token });
    expect(empty.status).toBe(200);
    expect(empty.body.payload.map((a: { id: string }) => a.id)).toEqual([
      "webhook",
      "dashboard_apps",
    ]);
    expect(empty.body.payload[0]).toMatchObject({ enabled: false, hooks: [] });

    const url = "https://hooks.example.com/parley";
    const created = await createHook(w, {
      app_id: "webhook",
      status: 1,
      settings: { url, subscriptions: ["contact_created"] },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      app_id: "webhook",
      status: true,
      hook_type: "account",
      account_id: w.account.id,
      inbox: null,
      settings: { url, name: null, subscriptions: ["contact_created"] },
    });
    expect((await webhooks(w)).map((h) => [h.id, h.url])).toEqual([[created.body.id, url]]);
    expect(await deliveredTo(w)).toEqual([url]);

    const listed = await api(`${base(w)}/apps`, { token: w.admin.token });
    expect(listed.body.payload[0]).toMatchObject({ enabled: true, hooks: [created.body] });
    // Agents see the hooks, not their settings (Chatwoot).
    const asAgent = await api(`${base(w)}/apps`, { token: w.agent.token });
    expect(asAgent.status).toBe(200);
    expect(asAgent.body.payload[0].hooks[0].settings).toBeUndefined();
  });

  it("status 0 stops the webhook, status 1 starts it again; settings change it", async () => {
    const w = await createWorld();
    const off = await createHook(w, {
      app_id: "webhook",
      status: 0,
      settings: { url: "https://a.example.com/x" },
    });
    expect(off.body.status).toBe(false);
    expect(await deliveredTo(w)).toEqual([]);
    // A settings change alone keeps it off.
    const moved = await patchHook(w, off.body.id, { settings: { url: "https://b.example.com/y" } });
    expect(moved.body).toMatchObject({
      status: false,
      settings: { url: "https://b.example.com/y" },
    });
    expect(await deliveredTo(w)).toEqual([]);
    const on = await patchHook(w, off.body.id, { status: 1 });
    expect(on.body.status).toBe(true);
    expect(await deliveredTo(w)).toEqual(["https://b.example.com/y"]);
    const offAgain = await patchHook(w, off.body.id, { status: 0, settings: { name: "CRM" } });
    expect(offAgain.body).toMatchObject({ status: false, settings: { name: "CRM" } });
    expect((await webhooks(w))[0]?.disabled_at).not.toBeNull();
  });

  it("status 0 is stored with the hook in one write, which its audit row records", async () => {
    const w = await createWorld();
    const audits = async () =>
      (
        await env.DB.prepare(
          "SELECT action, audited_changes FROM audit_logs WHERE account_id = ? AND auditable_type = 'Webhook' ORDER BY id",
        )
          .bind(w.account.id)
          .all<{ action: string; audited_changes: string }>()
      ).results.map((r) => [r.action, JSON.parse(r.audited_changes)]);
    const off = await createHook(w, {
      app_id: "webhook",
      status: 0,
      settings: { url: "https://a.example.com/one" },
    });
    const disabledAt = (await webhooks(w))[0]?.disabled_at;
    expect(disabledAt).toEqual(expect.any(Number));
    // One row, and it says the webhook was made disabled (no later, unaudited update).
    expect(await audits()).toEqual([
      [
        "create",
        expect.objectContaining({ url: "https://a.example.com/one", disabled_at: disabledAt }),
      ],
    ]);
    const on = await patchHook(w, off.body.id, { status: 1 });
    expect(on.body.status).toBe(true);
    const moved = await patchHook(w, off.body.id, {
      status: 0,
      settings: { url: "https://a.example.com/two" },
    });
    expect(moved.body).toMatchObject({
      status: false,
      settings: { url: "https://a.example.com/two" },
    });
    const changes = (await audits()).slice(1);
    expect(changes).toEqual([
      ["update", { disabled_at: [disabledAt, null] }],
      [
        "update",
        {
          url: ["https://a.example.com/one", "https://a.example.com/two"],
          disabled_at: [null, expect.any(Number)],
        },
      ],
    ]);
    // Nothing to change: no write at all.
    await patchHook(w, off.body.id, { status: 0 });
    expect(await audits()).toHaveLength(3);
  });

  it("deletes the hook and its webhook", async () => {
    const w = await createWorld();
    const h = await createHook(w, {
      app_id: "webhook",
      settings: { url: "https://c.example.com" },
    });
    const del = await api(`${base(w)}/hooks/${h.body.id}`, {
      method: "DELETE",
      token: w.admin.token,
    });
    expect(del.status).toBe(200);
    expect(await webhooks(w)).toEqual([]);
    expectError(
      await api(`${base(w)}/hooks/${h.body.id}`, { method: "DELETE", token: w.admin.token }),
      404,
    );
  });

  it("refuses apps Parley does not run, and bad settings, storing nothing", async () => {
    const w = await createWorld();
    const slack = await createHook(w, {
      app_id: "slack",
      settings: { url: "https://x.example.com" },
    });
    expectError(slack, 422);
    expect(slack.body.error).toMatch(/Slack/);
    for (const body of [
      { app_id: "dialogflow", inbox_id: w.inbox.id, settings: { url: "https://x.example.com" } },
      { app_id: "nope", settings: { url: "https://x.example.com" } },
      { app_id: "webhook" },
      { app_id: "webhook", settings: { url: "http://127.0.0.1/hook" } },
      { app_id: "webhook", settings: { url: "https://x.example.com", api_key: "k" } },
      { app_id: "webhook", status: 2, settings: { url: "https://x.example.com" } },
      { app_id: "webhook", inbox_id: 999_999_999, settings: { url: "https://x.example.com" } },
    ]) {
      expectError(await createHook(w, body), 422);
    }
    expect(await webhooks(w)).toEqual([]);
  });

  it("keeps accounts apart: another account's hook is 404", async () => {
    const w = await createWorld();
    const other = await createWorld();
    const theirs = await createHook(other, {
      app_id: "webhook",
      settings: { url: "https://d.example.com" },
    });
    expectError(await patchHook(w, theirs.body.id, { status: 0 }), 404);
    expectError(
      await api(`${base(w)}/hooks/${theirs.body.id}`, { method: "DELETE", token: w.admin.token }),
      404,
    );
    expect((await webhooks(other))[0]?.disabled_at).toBeNull();
    const apps = await api(`${base(w)}/apps`, { token: w.admin.token });
    expect(apps.body.payload[0].hooks).toEqual([]);
  });
});

describeAuthMatrix("GET integrations/apps", {
  method: "GET",
  path: (w) => `/api/v1/accounts/${w.account.id}/integrations/apps`,
});
describeAuthMatrix("POST integrations/hooks", {
  method: "POST",
  path: (w) => `/api/v1/accounts/${w.account.id}/integrations/hooks`,
  body: { app_id: "webhook", settings: { url: "https://e.example.com" } },
  adminOnly: true,
});
for (const method of ["PATCH", "DELETE"]) {
  describeAuthMatrix(`${method} integrations/hooks/{id}`, {
    method,
    path: async (w) => {
      const h = await createHook(w, {
        app_id: "webhook",
        settings: { url: "https://f.example.com" },
      });
      return `/api/v1/accounts/${w.account.id}/integrations/hooks/${h.body.id}`;
    },
    body: method === "PATCH" ? { status: 1 } : undefined,
    adminOnly: true,
  });
}
