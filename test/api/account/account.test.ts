import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createAccount, createAdmin, createWorld } from "../../support/factories";
import { api, expectError } from "../../support/http";

describe("GET /api/v1/accounts/{account_id} (E6)", () => {
  it("returns every field of the spec's account record", async () => {
    const { account, agent } = await createWorld();
    const res = await api(`/api/v1/accounts/${account.id}`, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: account.id,
      name: account.name,
      locale: "en",
      domain: null,
      support_email: null,
      status: "active",
      settings: {
        auto_resolve_after: null,
        auto_resolve_message: null,
        auto_resolve_ignore_waiting: false,
      },
      custom_attributes: {},
      latest_service_version: expect.any(String),
      subscribed_features: [],
    });
    expect(new Date(res.body.created_at).getTime() / 1000).toBeCloseTo(account.createdAt, -1);
    expect(res.body.features.webhooks).toBe(true);
    expect(typeof res.body.cache_keys).toBe("object");
  });

  it("accepts the Api-Access-Token header spelling and a trailing slash", async () => {
    const { account, admin } = await createWorld();
    const res = await api(`/api/v1/accounts/${account.id}/`, {
      headers: { "Api-Access-Token": admin.token },
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(account.id);
  });

  it("answers 404 for an unknown or malformed account id", async () => {
    const { admin } = await createWorld();
    expectError(await api("/api/v1/accounts/999999999", { token: admin.token }), 404);
    expectError(await api("/api/v1/accounts/abc", { token: admin.token }), 404);
  });

  it("answers 401 account_suspended to members of a suspended account", async () => {
    const account = await createAccount({ status: "suspended" });
    const admin = await createAdmin(account.id);
    expectError(
      await api(`/api/v1/accounts/${account.id}`, { token: admin.token }),
      401,
      "account_suspended",
    );
  });
});

describe("PATCH /api/v1/accounts/{account_id}", () => {
  it("lets an administrator change name, locale and auto-resolve settings", async () => {
    const { account, admin } = await createWorld();
    const res = await api(`/api/v1/accounts/${account.id}`, {
      method: "PATCH",
      token: admin.token,
      body: {
        name: "Acme Support",
        locale: "pt_BR",
        auto_resolve_after: 60,
        industry: "retail",
        ignored: 1,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Acme Support");
    expect(res.body.locale).toBe("pt_BR");
    expect(res.body.settings.auto_resolve_after).toBe(60);
    expect(res.body.custom_attributes.industry).toBe("retail");
    const again = await api(`/api/v1/accounts/${account.id}`, { token: admin.token });
    expect(again.body.name).toBe("Acme Support");
  });

  it("refuses auto_resolve_after outside Chatwoot's range (10 to 1,439,856 minutes) and changes nothing", async () => {
    const { account, admin } = await createWorld();
    const path = `/api/v1/accounts/${account.id}`;
    await api(path, { method: "PATCH", token: admin.token, body: { auto_resolve_after: 60 } });
    for (const bad of [9, 0, -10, 1_439_857, 10.5, "60"]) {
      expectError(
        await api(path, { method: "PATCH", token: admin.token, body: { auto_resolve_after: bad } }),
        422,
        "validation_failed",
      );
    }
    const after = await api(path, { token: admin.token });
    expect(after.body.settings.auto_resolve_after).toBe(60);
  });

  it("answers 422 with each invalid field, and changes nothing", async () => {
    const { account, admin } = await createWorld();
    const res = await api(`/api/v1/accounts/${account.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { name: "", locale: 7, support_email: "not-an-email" },
    });
    const err = expectError(res, 422, "validation_failed");
    expect(err.details.map((d) => d.path).sort()).toEqual(["locale", "name", "support_email"]);
    const after = await api(`/api/v1/accounts/${account.id}`, { token: admin.token });
    expect(after.body.name).toBe(account.name);
  });

  it("answers 400 to malformed JSON", async () => {
    const { account, admin } = await createWorld();
    const res = await api(`/api/v1/accounts/${account.id}`, {
      method: "PATCH",
      token: admin.token,
      raw: "{bad",
    });
    expectError(res, 400, "malformed_json");
  });

  it("answers 413 to a JSON body over 1 MiB", async () => {
    const { account, admin } = await createWorld();
    const res = await api(`/api/v1/accounts/${account.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { name: "x", industry: "y".repeat(1024 * 1024 + 10) },
    });
    expectError(res, 413, "payload_too_large");
  });

  describeAuthMatrix("PATCH account", {
    method: "PATCH",
    path: (w) => `/api/v1/accounts/${w.account.id}`,
    body: { name: "renamed" },
    adminOnly: true,
  });
});

describeAuthMatrix("GET account", {
  method: "GET",
  path: (w) => `/api/v1/accounts/${w.account.id}`,
});

describe("routing errors", () => {
  it("answers unknown routes and wrong methods with JSON 404", async () => {
    expectError(await api("/nope"), 404, "not_found");
    const { account, admin } = await createWorld();
    expectError(
      await api(`/api/v1/accounts/${account.id}`, { method: "PUT", token: admin.token, body: {} }),
      404,
    );
  });
});
