import { describe, expect, it } from "vitest";
import { createPlatformApp, createWorld } from "../../support/factories";
import { api, expectError } from "../../support/http";

describe("platform accounts", () => {
  it("creates, shows, updates and deletes an account", async () => {
    const app = await createPlatformApp();
    const created = await api("/platform/api/v1/accounts", {
      token: app.token,
      body: { name: "Acme", locale: "fr", features: { webhooks: false }, limits: { agents: 5 } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: "Acme",
      locale: "fr",
      status: "active",
      limits: { agents: 5 },
      enabled_features: expect.objectContaining({ webhooks: false, labels: true }),
    });
    const id = created.body.id;
    const shown = await api(`/platform/api/v1/accounts/${id}`, { token: app.token });
    expect(shown.body.name).toBe("Acme");
    const updated = await api(`/platform/api/v1/accounts/${id}`, {
      method: "PATCH",
      token: app.token,
      body: { name: "Acme 2", status: "suspended" },
    });
    expect(updated.body).toMatchObject({ name: "Acme 2", status: "suspended", locale: "fr" });
    const deleted = await api(`/platform/api/v1/accounts/${id}`, {
      method: "DELETE",
      token: app.token,
    });
    expect(deleted.status).toBe(200);
    expectError(await api(`/platform/api/v1/accounts/${id}`, { token: app.token }), 404);
  });

  it("hides accounts another platform app created", async () => {
    const owner = await createPlatformApp();
    const stranger = await createPlatformApp();
    const created = await api("/platform/api/v1/accounts", {
      token: owner.token,
      body: { name: "Mine" },
    });
    const path = `/platform/api/v1/accounts/${created.body.id}`;
    expectError(await api(path, { token: stranger.token }), 404);
    expectError(
      await api(path, { method: "PATCH", token: stranger.token, body: { name: "x" } }),
      404,
    );
    expectError(await api(path, { method: "DELETE", token: stranger.token }), 404);
    expect((await api(path, { token: owner.token })).body.name).toBe("Mine");
  });

  it("refuses missing, unknown and user tokens", async () => {
    const { admin } = await createWorld();
    expectError(
      await api("/platform/api/v1/accounts", { body: { name: "x" } }),
      401,
      "unauthorized",
    );
    expectError(
      await api("/platform/api/v1/accounts", { token: "nope", body: { name: "x" } }),
      401,
      "invalid_token",
    );
    expectError(
      await api("/platform/api/v1/accounts", { token: admin.token, body: { name: "x" } }),
      401,
      "invalid_token",
    );
  });

  it("validates the body", async () => {
    const app = await createPlatformApp();
    const err = expectError(
      await api("/platform/api/v1/accounts", {
        token: app.token,
        body: { name: 5, status: "frozen", features: { nope: true } },
      }),
      422,
    );
    expect(err.details.map((d) => d.path)).toEqual(expect.arrayContaining(["name", "status"]));
    expectError(await api("/platform/api/v1/accounts", { token: app.token, raw: "not json" }), 400);
    expectError(
      await api("/platform/api/v1/accounts", {
        token: app.token,
        raw: "name=x",
        headers: { "content-type": "text/plain" },
      }),
      415,
    );
  });
});
