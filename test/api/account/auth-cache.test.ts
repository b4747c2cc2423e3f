import { describe, expect, it } from "vitest";
import { TtlCache } from "../../../worker/lib/ttl-cache";
import { createPlatformApp, createWorld, permit } from "../../support/factories";
import { api, expectError } from "../../support/http";

// The isolate remembers tokens and roles for a few seconds; a write through the API that can
// change them must take effect on the very next request, never after the cache expires.
describe("auth shortcuts follow the writes that change them", () => {
  it("promotes and demotes an agent at once", async () => {
    const w = await createWorld();
    const webhooks = `/api/v1/accounts/${w.account.id}/webhooks`;
    await expectError(await api(webhooks, { token: w.agent.token }), 403, "forbidden");
    const promote = await api(`/api/v1/accounts/${w.account.id}/agents/${w.agent.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { role: "administrator" },
    });
    expect(promote.status).toBe(200);
    expect((await api(webhooks, { token: w.agent.token })).status).toBe(200);
    await api(`/api/v1/accounts/${w.account.id}/agents/${w.agent.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { role: "agent" },
    });
    await expectError(await api(webhooks, { token: w.agent.token }), 403, "forbidden");
  });

  it("shuts a removed agent out at once", async () => {
    const w = await createWorld();
    const inboxes = `/api/v1/accounts/${w.account.id}/inboxes`;
    expect((await api(inboxes, { token: w.agent.token })).status).toBe(200);
    const removed = await api(`/api/v1/accounts/${w.account.id}/agents/${w.agent.id}`, {
      method: "DELETE",
      token: w.admin.token,
    });
    expect(removed.status).toBe(200);
    await expectError(await api(inboxes, { token: w.agent.token }), 404, "not_found");
  });

  it("refuses a bot's old token right after a reset", async () => {
    const w = await createWorld();
    const bot = w.bot;
    const conversations = `/api/v1/accounts/${w.account.id}/conversations`;
    // A whitelisted bot action: an empty body gets past auth to validation.
    const before = await api(conversations, { method: "POST", token: bot.token, body: {} });
    expect(before.status).toBe(422);
    const reset = await api(
      `/api/v1/accounts/${w.account.id}/agent_bots/${bot.id}/reset_access_token`,
      { method: "POST", token: w.admin.token },
    );
    expect(reset.status).toBe(200);
    await expectError(
      await api(conversations, { method: "POST", token: bot.token, body: {} }),
      401,
      "invalid_token",
    );
  });

  it("closes a suspended account at once", async () => {
    const w = await createWorld();
    const app = await createPlatformApp();
    await permit(app.id, "Account", w.account.id);
    const account = `/api/v1/accounts/${w.account.id}`;
    expect((await api(account, { token: w.admin.token })).status).toBe(200);
    const suspend = await api(`/platform/api/v1/accounts/${w.account.id}`, {
      method: "PATCH",
      token: app.token,
      body: { status: "suspended" },
    });
    expect(suspend.status).toBe(200);
    const after = await api(account, { token: w.admin.token });
    expect(after.status).toBeGreaterThanOrEqual(400);
    expect(after.body.code).toBe("account_suspended");
  });
});

describe("TtlCache", () => {
  it("forgets an entry once its time is up", () => {
    const cache = new TtlCache<string>(1000, 10);
    cache.set("a", "x", 0);
    expect(cache.get("a", 999)).toBe("x");
    expect(cache.get("a", 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("makes room by dropping the oldest entry, and a set renews an entry's place", () => {
    const cache = new TtlCache<number>(10_000, 2);
    cache.set("a", 1, 0);
    cache.set("b", 2, 0);
    cache.set("a", 3, 1);
    cache.set("c", 4, 2);
    expect(cache.get("b", 3)).toBeUndefined();
    expect(cache.get("a", 3)).toBe(3);
    expect(cache.get("c", 3)).toBe(4);
    cache.clear();
    expect(cache.get("a", 3)).toBeUndefined();
  });
});
