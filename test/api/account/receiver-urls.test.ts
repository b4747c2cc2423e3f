import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import worker from "../../../worker";
import * as t from "../../../worker/db/schema";
import { checkResponse } from "../../support/expect-schema";
import { createPlatformApp, createWorld, db } from "../../support/factories";
import { createManagedAccount } from "../../support/factories-users";
import { type ApiResult, api, expectError } from "../../support/http";

// Agent bots' outgoing_url and API inboxes' webhook_url get the check account webhooks' url
// gets at save (and every send): an absolute http(s) URL that reaches no private network.

const PRIVATE = "must not point at a private, loopback or link-local address";
const REFUSED: [string, string][] = [
  ["http://127.0.0.1:4000/bot", PRIVATE],
  ["http://localhost/bot", PRIVATE],
  ["http://169.254.169.254/latest/meta-data", PRIVATE],
  ["http://10.0.0.7/bot", PRIVATE],
  ["http://[fe80::1]/bot", PRIVATE],
  ["http://bot.internal/in", PRIVATE],
  ["http://[::ffff:0:127.0.0.1]/bot", PRIVATE],
  ["http://[64:ff9b::10.0.0.1]/bot", PRIVATE],
  ["http://0x7f.1/bot", PRIVATE],
  ["http://0177.0.0.1/bot", PRIVATE],
  ["http://2130706433/bot", PRIVATE],
  ["https://user:pass@bot.example.com/in", "must not contain credentials (user:password@)"],
];

/** The Worker with PARLEY_ALLOW_LOOPBACK_WEBHOOKS=1, as `npm start` runs it. */
async function apiWithLoopback(
  path: string,
  opts: { method: string; token: string; body: unknown },
): Promise<ApiResult> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://parley.test${path}`, {
      method: opts.method,
      headers: { api_access_token: opts.token, "content-type": "application/json" },
      body: JSON.stringify(opts.body),
    }),
    { ...env, PARLEY_ALLOW_LOOPBACK_WEBHOOKS: "1" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const body = await res.json();
  checkResponse(opts.method, path, res.status, body);
  return { status: res.status, body, headers: res.headers };
}

const botRow = (id: number) => db().select().from(t.agentBots).where(eq(t.agentBots.id, id)).get();
const inboxRow = (id: number) => db().select().from(t.inboxes).where(eq(t.inboxes.id, id)).get();
const botsOf = (accountId: number) =>
  db().select().from(t.agentBots).where(eq(t.agentBots.accountId, accountId)).all();

function expectRefused(res: ApiResult, path: string, message: string) {
  const err = expectError(res, 422, "validation_failed");
  expect(err.details).toEqual([{ path, message }]);
}

describe("agent bot outgoing_url (account API)", () => {
  it.each(REFUSED)("refuses %s at create and update, and saves nothing", async (url, message) => {
    const w = await createWorld();
    const bots = `/api/v1/accounts/${w.account.id}/agent_bots`;
    const before = (await botsOf(w.account.id)).length;
    const created = await api(bots, {
      method: "POST",
      token: w.admin.token,
      body: { agent_bot: { name: "Private", outgoing_url: url } },
    });
    expectRefused(created, "outgoing_url", message);
    expect(await botsOf(w.account.id)).toHaveLength(before);

    const ok = await api(bots, {
      method: "POST",
      token: w.admin.token,
      body: { name: "Public", outgoing_url: "https://bot.example.com/in" },
    });
    expect(ok.status).toBe(200);
    const updated = await api(`${bots}/${ok.body.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { name: "Renamed", outgoing_url: url },
    });
    expectRefused(updated, "outgoing_url", message);
    expect(await botRow(ok.body.id)).toMatchObject({
      name: "Public",
      outgoingUrl: "https://bot.example.com/in",
    });
  });

  it("accepts a public URL, and null still clears it", async () => {
    const w = await createWorld();
    const bots = `/api/v1/accounts/${w.account.id}/agent_bots`;
    const created = await api(bots, {
      method: "POST",
      token: w.admin.token,
      body: { name: "Public", outgoing_url: "http://93.184.215.14/hook" },
    });
    expect(created.status).toBe(200);
    expect(created.body.outgoing_url).toBe("http://93.184.215.14/hook");
    const cleared = await api(`${bots}/${created.body.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { outgoing_url: null },
    });
    expect(cleared.status).toBe(200);
    expect((await botRow(created.body.id))?.outgoingUrl).toBeNull();
  });

  it("accepts loopback only when PARLEY_ALLOW_LOOPBACK_WEBHOOKS=1", async () => {
    const w = await createWorld();
    const bots = `/api/v1/accounts/${w.account.id}/agent_bots`;
    const body = { name: "Local", outgoing_url: "http://127.0.0.1:4000/bot" };
    const local = await apiWithLoopback(bots, { method: "POST", token: w.admin.token, body });
    expect(local.status).toBe(200);
    expect((await botRow(local.body.id))?.outgoingUrl).toBe("http://127.0.0.1:4000/bot");
    // Private networks stay refused, loopback or not.
    const lan = await apiWithLoopback(`${bots}/${local.body.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { outgoing_url: "http://192.168.1.20/bot" },
    });
    expectRefused(lan, "outgoing_url", PRIVATE);
  });
});

describe("agent bot outgoing_url (platform API)", () => {
  it("refuses a private URL at create and update, and saves nothing", async () => {
    const app = await createPlatformApp();
    const account = await createManagedAccount(app.id);
    const bots = "/platform/api/v1/agent_bots";
    expectRefused(
      await api(bots, {
        token: app.token,
        body: { name: "Private", account_id: account.id, outgoing_url: "http://10.1.2.3/" },
      }),
      "outgoing_url",
      PRIVATE,
    );
    expect(await botsOf(account.id)).toEqual([]);
    const created = await api(bots, {
      token: app.token,
      body: { name: "Public", outgoing_url: "https://bot.example.com/" },
    });
    expect(created.status).toBe(200);
    expectRefused(
      await api(`${bots}/${created.body.id}`, {
        method: "PATCH",
        token: app.token,
        body: { outgoing_url: "http://[::1]:8080/" },
      }),
      "outgoing_url",
      PRIVATE,
    );
    expect((await botRow(created.body.id))?.outgoingUrl).toBe("https://bot.example.com/");
  });
});

describe("API inbox webhook_url", () => {
  it.each(REFUSED)("refuses %s at create and update, and saves nothing", async (url, message) => {
    const w = await createWorld();
    const inboxes = `/api/v1/accounts/${w.account.id}/inboxes`;
    const count = async () =>
      (await db().select().from(t.inboxes).where(eq(t.inboxes.accountId, w.account.id)).all())
        .length;
    const before = await count();
    expectRefused(
      await api(inboxes, {
        token: w.admin.token,
        body: { name: "Hooked", channel: { type: "api", webhook_url: url } },
      }),
      "channel.webhook_url",
      message,
    );
    // The flat form (Chatwoot clients send both) is checked the same.
    expectRefused(
      await api(inboxes, {
        token: w.admin.token,
        body: { name: "Hooked", webhook_url: url, channel: { type: "api" } },
      }),
      "channel.webhook_url",
      message,
    );
    expect(await count()).toBe(before);
    const updated = await api(`${inboxes}/${w.inbox.id}`, {
      method: "PATCH",
      token: w.admin.token,
      body: { name: "Renamed", channel: { webhook_url: url } },
    });
    expectRefused(updated, "channel.webhook_url", message);
    expect(await inboxRow(w.inbox.id)).toMatchObject({
      name: w.inbox.name,
      webhookUrl: w.inbox.webhookUrl,
    });
  });

  it("accepts a public URL; an empty string and null still clear it", async () => {
    const w = await createWorld();
    const inboxes = `/api/v1/accounts/${w.account.id}/inboxes`;
    const created = await api(inboxes, {
      token: w.admin.token,
      body: {
        name: "Hooked",
        channel: { type: "api", webhook_url: "https://hooks.example.com/a" },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.webhook_url).toBe("https://hooks.example.com/a");
    const path = `${inboxes}/${created.body.id}`;
    for (const empty of ["", null]) {
      await api(path, {
        method: "PATCH",
        token: w.admin.token,
        body: { channel: { webhook_url: "https://hooks.example.com/b" } },
      });
      const cleared = await api(path, {
        method: "PATCH",
        token: w.admin.token,
        body: { channel: { webhook_url: empty } },
      });
      expect(cleared.status).toBe(200);
      expect((await inboxRow(created.body.id))?.webhookUrl).toBeNull();
    }
  });

  it("accepts loopback only when PARLEY_ALLOW_LOOPBACK_WEBHOOKS=1", async () => {
    const w = await createWorld();
    const path = `/api/v1/accounts/${w.account.id}/inboxes/${w.inbox.id}`;
    const body = { channel: { webhook_url: "http://localhost:4000/inbox" } };
    expectRefused(
      await api(path, { method: "PATCH", token: w.admin.token, body }),
      "channel.webhook_url",
      PRIVATE,
    );
    const local = await apiWithLoopback(path, { method: "PATCH", token: w.admin.token, body });
    expect(local.status).toBe(200);
    expect((await inboxRow(w.inbox.id))?.webhookUrl).toBe("http://localhost:4000/inbox");
  });
});
