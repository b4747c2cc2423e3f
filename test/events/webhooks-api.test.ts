import { describe, expect, it } from "vitest";
import { WebhookEnvelopeSchema, WebhookListSchema } from "../../worker/modules/webhooks/schema";
import { describeAuthMatrix } from "../support/auth-matrix";
import { createAccount, createAdmin, createInbox, createWorld } from "../support/factories";
import { createWebhook } from "../support/factories-webhooks";
import { api, expectError } from "../support/http";

const base = (accountId: number) => `/api/v1/accounts/${accountId}/webhooks`;
let urlSeq = 0;
const freshUrl = () => `https://receiver-${++urlSeq}.example.com/hooks`;

async function hookWorld() {
  const world = await createWorld();
  const hook = await createWebhook(world.admin.token, world.account.id, { url: freshUrl() });
  return { ...world, hook };
}

describeAuthMatrix("GET /webhooks", {
  method: "GET",
  path: (w) => base(w.account.id),
  adminOnly: true,
});
describeAuthMatrix("POST /webhooks", {
  method: "POST",
  path: (w) => base(w.account.id),
  body: { url: "https://matrix.example.com/x" },
  adminOnly: true,
});
describeAuthMatrix("PATCH /webhooks/{id}", {
  method: "PATCH",
  path: async (w) =>
    `${base(w.account.id)}/${(await createWebhook(w.admin.token, w.account.id, { url: freshUrl() })).id}`,
  body: { name: "x" },
  adminOnly: true,
});
describeAuthMatrix("DELETE /webhooks/{id}", {
  method: "DELETE",
  path: async (w) =>
    `${base(w.account.id)}/${(await createWebhook(w.admin.token, w.account.id, { url: freshUrl() })).id}`,
  adminOnly: true,
});
describeAuthMatrix("GET /webhooks/{id}/deliveries", {
  method: "GET",
  path: async (w) =>
    `${base(w.account.id)}/${(await createWebhook(w.admin.token, w.account.id, { url: freshUrl() })).id}/deliveries`,
  adminOnly: true,
});
describeAuthMatrix("POST /webhooks/{id}/redeliver_failed", {
  method: "POST",
  path: async (w) =>
    `${base(w.account.id)}/${(await createWebhook(w.admin.token, w.account.id, { url: freshUrl() })).id}/redeliver_failed`,
  adminOnly: true,
});
describeAuthMatrix("POST /webhooks/{id}/deliveries/{delivery_id}/redeliver", {
  method: "POST",
  path: async (w) =>
    `${base(w.account.id)}/${(await createWebhook(w.admin.token, w.account.id, { url: freshUrl() })).id}/deliveries/1/redeliver`,
  adminOnly: true,
});

describe("POST /webhooks", () => {
  it("creates a webhook with a whsec_ secret of 32 random bytes, shown once in both shapes", async () => {
    const w = await createWorld();
    const url = freshUrl();
    const res = await api(base(w.account.id), {
      method: "POST",
      token: w.admin.token,
      body: { url, name: "CRM", subscriptions: ["message_created", "conversation_created"] },
    });
    expect(res.status).toBe(200);
    const body = WebhookEnvelopeSchema.parse(res.body);
    expect(body).toMatchObject({
      account_id: w.account.id,
      url,
      name: "CRM",
      subscriptions: ["message_created", "conversation_created"],
      inbox: null,
      disabled_at: null,
    });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(atob(body.secret.slice(6))).toHaveLength(32);
    const { payload, ...record } = body;
    expect(payload.webhook).toEqual(record);
    const other = await createWebhook(w.admin.token, w.account.id, { url: freshUrl() });
    expect(other.secret).not.toBe(body.secret);
  });

  it("accepts Chatwoot's {webhook: {...}} wrapping and defaults to every event but typing", async () => {
    const w = await createWorld();
    const inbox = await createInbox(w.account.id);
    const res = await api(base(w.account.id), {
      method: "POST",
      token: w.admin.token,
      body: { webhook: { url: freshUrl(), inbox_id: inbox.id } },
    });
    expect(res.status).toBe(200);
    expect(res.body.inbox).toEqual({ id: inbox.id, name: inbox.name });
    expect(res.body.subscriptions).toEqual([
      "conversation_created",
      "conversation_status_changed",
      "conversation_updated",
      "message_created",
      "message_updated",
      "contact_created",
      "contact_updated",
      "webwidget_triggered",
    ]);
  });

  it("answers 422 for names outside the event list, and for an empty list", async () => {
    const w = await createWorld();
    for (const subscriptions of [
      ["message_created", "conversation_resolved"],
      [],
      "message_created",
    ]) {
      const res = await api(base(w.account.id), {
        method: "POST",
        token: w.admin.token,
        body: { url: freshUrl(), subscriptions },
      });
      const error = expectError(res, 422, "validation_failed");
      expect(error.details[0]?.path).toMatch(/^subscriptions/);
    }
    expect((await api(base(w.account.id), { token: w.admin.token })).body.payload.webhooks).toEqual(
      [],
    );
  });

  it("answers 422 for URLs that are not absolute http(s) or that reach private networks", async () => {
    const w = await createWorld();
    const refused = [
      "not a url",
      "/relative/path",
      "ftp://example.com/x",
      "http://localhost:3000/hook",
      "http://127.0.0.1/hook",
      "http://10.1.2.3/hook",
      "http://172.16.0.1/hook",
      "http://192.168.1.10/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hook",
      "http://[fd00::1]/hook",
      "http://[fe80::1]/hook",
      "http://[::ffff:10.0.0.1]/hook",
      "http://0x7f000001/hook",
      "http://printer.local/hook",
      "http://intranet/hook",
      "http://[::ffff:0:127.0.0.1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://[::ffff:7f00:1]/hook",
      "http://[64:ff9b::127.0.0.1]/hook",
      "http://[::]/hook",
      "http://[::127.0.0.1]/hook",
      "http://[2002:7f00:1::1]/hook",
      "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
      "http://[ff02::1]/hook",
      "http://2130706433/hook",
      "http://0x7f.1/hook",
      "http://0177.0.0.1/hook",
      "https://user:pass@hooks.example.com/hook",
    ];
    for (const url of refused) {
      const error = expectError(
        await api(base(w.account.id), { method: "POST", token: w.admin.token, body: { url } }),
        422,
        "validation_failed",
      );
      expect(error.details).toEqual([{ path: "url", message: expect.any(String) }]);
    }
    expect((await api(base(w.account.id), { token: w.admin.token })).body.payload.webhooks).toEqual(
      [],
    );
  });

  it("answers 422 for a URL the account already has, and for another account's inbox", async () => {
    const w = await createWorld();
    const url = freshUrl();
    await createWebhook(w.admin.token, w.account.id, { url });
    const dup = await api(base(w.account.id), {
      method: "POST",
      token: w.admin.token,
      body: { url },
    });
    expect(expectError(dup, 422).details).toEqual([
      { path: "url", message: "has already been taken" },
    ]);
    const other = await createAccount();
    const foreign = await createInbox(other.id);
    const res = await api(base(w.account.id), {
      method: "POST",
      token: w.admin.token,
      body: { url: freshUrl(), inbox_id: foreign.id },
    });
    expect(expectError(res, 422).details[0]?.path).toBe("inbox_id");
    // The same URL in another account is fine.
    const admin = await createAdmin(other.id);
    expect(
      (await api(base(other.id), { method: "POST", token: admin.token, body: { url } })).status,
    ).toBe(200);
  });

  it("answers 422 listing the fields of an invalid body", async () => {
    const w = await createWorld();
    const res = await api(base(w.account.id), {
      method: "POST",
      token: w.admin.token,
      body: { name: 5 },
    });
    const paths = expectError(res, 422).details.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["url", "name"]));
  });
});

describe("GET /webhooks", () => {
  it("lists the account's webhooks with their secrets, Chatwoot's envelope", async () => {
    const w = await hookWorld();
    const second = await createWebhook(w.admin.token, w.account.id, { url: freshUrl() });
    const other = await hookWorld();
    const res = await api(base(w.account.id), { token: w.admin.token });
    expect(res.status).toBe(200);
    const body = WebhookListSchema.parse(res.body);
    expect(body.payload.webhooks.map((h) => h.id)).toEqual([w.hook.id, second.id]);
    expect(body.payload.webhooks[0]?.secret).toBe(w.hook.secret);
    expect(body.payload.webhooks.map((h) => h.id)).not.toContain(other.hook.id);
  });
});

describe("PATCH /webhooks/{id} (E16)", () => {
  it("changes what is given and keeps the rest", async () => {
    const w = await hookWorld();
    const res = await api(`${base(w.account.id)}/${w.hook.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { webhook: { subscriptions: ["contact_updated"] } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: w.hook.id,
      url: w.hook.url,
      secret: w.hook.secret,
      subscriptions: ["contact_updated"],
    });
    expect(res.body.payload.webhook.subscriptions).toEqual(["contact_updated"]);
    const url = freshUrl();
    const moved = await api(`${base(w.account.id)}/${w.hook.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { url, name: "renamed" },
    });
    expect(moved.body).toMatchObject({ url, name: "renamed", subscriptions: ["contact_updated"] });
  });

  it("refuses private URLs and unknown events with 422, changing nothing", async () => {
    const w = await hookWorld();
    const path = `${base(w.account.id)}/${w.hook.id}`;
    for (const body of [{ url: "http://10.0.0.5/x" }, { subscriptions: ["nope"] }]) {
      expectError(await api(path, { method: "PATCH", token: w.admin.token, body }), 422);
    }
    const [stored] = (await api(base(w.account.id), { token: w.admin.token })).body.payload
      .webhooks;
    expect(stored).toMatchObject({ url: w.hook.url, subscriptions: w.hook.subscriptions });
  });

  it("answers 404 for unknown, malformed and other accounts' ids", async () => {
    const w = await hookWorld();
    const other = await hookWorld();
    for (const id of ["999999", "abc", String(other.hook.id)]) {
      expectError(
        await api(`${base(w.account.id)}/${id}`, {
          method: "PATCH",
          token: w.admin.token,
          body: { name: "x" },
        }),
        404,
        "not_found",
      );
    }
  });
});

describe("DELETE /webhooks/{id}", () => {
  it("deletes the webhook; a second delete is 404", async () => {
    const w = await hookWorld();
    const path = `${base(w.account.id)}/${w.hook.id}`;
    const res = await api(path, { method: "DELETE", token: w.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await api(base(w.account.id), { token: w.admin.token })).body.payload.webhooks).toEqual(
      [],
    );
    expectError(await api(path, { method: "DELETE", token: w.admin.token }), 404);
  });

  it("answers 404 for another account's webhook", async () => {
    const w = await hookWorld();
    const other = await hookWorld();
    expectError(
      await api(`${base(w.account.id)}/${other.hook.id}`, {
        method: "DELETE",
        token: w.admin.token,
      }),
      404,
    );
  });
});

describe("delivery log endpoints", () => {
  it("answer 404 for an unknown delivery", async () => {
    const w = await hookWorld();
    expectError(
      await api(`${base(w.account.id)}/${w.hook.id}/deliveries/424242/redeliver`, {
        method: "POST",
        token: w.admin.token,
      }),
      404,
    );
  });

  it("list nothing for a new webhook, and answer 422 for an unknown status filter", async () => {
    const w = await hookWorld();
    const res = await api(`${base(w.account.id)}/${w.hook.id}/deliveries`, {
      token: w.admin.token,
    });
    expect(res.body).toEqual({ meta: { count: 0, current_page: 1 }, payload: [] });
    expectError(
      await api(`${base(w.account.id)}/${w.hook.id}/deliveries?status=lost`, {
        token: w.admin.token,
      }),
      422,
    );
  });
});
