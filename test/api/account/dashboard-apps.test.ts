import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_DASHBOARD_APPS } from "../../../worker/modules/dashboard-apps/schema";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createWorld } from "../../support/factories";
import { api, expectError } from "../../support/http";

const base = (accountId: number) => `/api/v1/accounts/${accountId}/dashboard_apps`;
const CRM = "https://crm.example.com/chatwoot?panel=1";

type App = { id: number; title: string; content: { type: string; url: string }[] };

async function create(accountId: number, token: string, body: unknown) {
  const res = await api(base(accountId), { method: "POST", token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as App;
}

const stored = async (accountId: number) =>
  (
    await env.DB.prepare("SELECT * FROM dashboard_apps WHERE account_id = ? ORDER BY id")
      .bind(accountId)
      .all()
  ).results;

describe("dashboard apps", () => {
  it("an administrator creates one (flat or wrapped), every member lists and reads it", async () => {
    const { account, admin, agent } = await createWorld();
    const created = await create(account.id, admin.token, {
      dashboard_app: { title: "Orders", content: [{ type: "frame", url: CRM }] },
    });
    expect(created).toEqual({
      id: expect.any(Number),
      title: "Orders",
      content: [{ type: "frame", url: CRM }],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const second = await create(account.id, admin.token, {
      title: "  Billing  ",
      content: [
        { type: "frame", url: "https://billing.example.com/" },
        // Chatwoot's strong parameters keep url and type only.
        { type: "frame", url: "http://localhost:3001/dev", extra: "dropped" },
      ],
    });
    expect(second.title).toBe("Billing");
    expect(second.content[1]).toEqual({ type: "frame", url: "http://localhost:3001/dev" });

    const list = await api(base(account.id), { token: agent.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created, second]);
    const one = await api(`${base(account.id)}/${created.id}`, { token: agent.token });
    expect(one.body).toEqual(created);
    expect((await stored(account.id))[0]).toMatchObject({ user_id: admin.id, title: "Orders" });
  });

  it("updates the title or the frames, and deletes", async () => {
    const { account, admin } = await createWorld();
    const app = await create(account.id, admin.token, {
      title: "Orders",
      content: [{ type: "frame", url: CRM }],
    });
    const path = `${base(account.id)}/${app.id}`;
    const renamed = await api(path, {
      method: "PATCH",
      token: admin.token,
      body: { title: "CRM" },
    });
    expect(renamed.body).toMatchObject({ title: "CRM", content: [{ url: CRM }] });
    const moved = await api(path, {
      method: "PATCH",
      token: admin.token,
      body: {
        dashboard_app: { content: [{ type: "frame", url: "https://[2001:db8::1]:8443/x" }] },
      },
    });
    expect(moved.body).toMatchObject({
      title: "CRM",
      content: [{ type: "frame", url: "https://[2001:db8::1]:8443/x" }],
    });
    expect((await api(path, { method: "DELETE", token: admin.token })).status).toBe(200);
    expectError(await api(path, { token: admin.token }), 404);
    expect(await stored(account.id)).toEqual([]);
  });

  it("refuses frames that are not https (http only on localhost), and other bad input, storing nothing", async () => {
    const { account, admin } = await createWorld();
    const frame = (url: unknown) => ({ title: "X", content: [{ type: "frame", url }] });
    const bad: unknown[] = [
      frame("http://crm.example.com/"),
      frame("http://10.0.0.5/"),
      frame("javascript:alert(1)"),
      frame("data:text/html,<script>alert(1)</script>"),
      frame("ftp://example.com/"),
      frame("http://[::1]:3000/"),
      frame("https://user:secret@crm.example.com/"),
      frame("not a url"),
      frame(""),
      frame(`https://crm.example.com/${"a".repeat(2100)}`),
      frame(42),
      // This service's own origin (PUBLIC_URL here): a page there, framed with its origin,
      // could reach the session.
      frame("https://chat.parley.test/anything"),
      { title: "X", content: [{ type: "link", url: CRM }] },
      { title: "X", content: [{ url: CRM }] },
      { title: "X", content: [] },
      { title: "X", content: Array.from({ length: 6 }, () => ({ type: "frame", url: CRM })) },
      { title: "X", content: { type: "frame", url: CRM } },
      { title: "", content: [{ type: "frame", url: CRM }] },
      { title: "x".repeat(256), content: [{ type: "frame", url: CRM }] },
      { content: [{ type: "frame", url: CRM }] },
      { title: "X" },
    ];
    for (const body of bad) {
      const res = await api(base(account.id), { method: "POST", token: admin.token, body });
      expectError(res, 422);
    }
    const own = await api(base(account.id), {
      method: "POST",
      token: admin.token,
      body: frame("https://chat.parley.test/x"),
    });
    expect(own.body.details).toEqual([
      { path: "content.0.url", message: "must not be on this service's own address" },
    ]);
    const http = await api(base(account.id), {
      method: "POST",
      token: admin.token,
      body: frame("http://crm.example.com/"),
    });
    expect(JSON.stringify(http.body.details)).toMatch(/https/);
    expect(await stored(account.id)).toEqual([]);

    const app = await create(account.id, admin.token, frame(CRM));
    const patched = await api(`${base(account.id)}/${app.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { content: [{ type: "frame", url: "http://crm.example.com/" }] },
    });
    expectError(patched, 422);
    expect((await stored(account.id))[0]).toMatchObject({
      content: JSON.stringify([{ type: "frame", url: CRM }]),
    });
  });

  it(`holds at most ${MAX_DASHBOARD_APPS} apps per account`, async () => {
    const { account, admin } = await createWorld();
    const values = Array.from({ length: MAX_DASHBOARD_APPS }, (_, i) => `(?, 'App ${i}', ?)`);
    await env.DB.prepare(
      `INSERT INTO dashboard_apps (account_id, title, content) VALUES ${values.join(",")}`,
    )
      .bind(
        ...Array.from({ length: MAX_DASHBOARD_APPS }).flatMap(() => [
          account.id,
          JSON.stringify([{ type: "frame", url: CRM }]),
        ]),
      )
      .run();
    const res = await api(base(account.id), {
      method: "POST",
      token: admin.token,
      body: { title: "One more", content: [{ type: "frame", url: CRM }] },
    });
    expectError(res, 422);
    expect(await stored(account.id)).toHaveLength(MAX_DASHBOARD_APPS);
  });

  it("agents may read but not write; another account's apps are not found", async () => {
    const { account, admin, agent } = await createWorld();
    const app = await create(account.id, admin.token, {
      title: "Orders",
      content: [{ type: "frame", url: CRM }],
    });
    const body = { title: "Mine", content: [{ type: "frame", url: CRM }] };
    expectError(await api(base(account.id), { method: "POST", token: agent.token, body }), 403);
    const path = `${base(account.id)}/${app.id}`;
    expectError(await api(path, { method: "PATCH", token: agent.token, body }), 403);
    expectError(await api(path, { method: "DELETE", token: agent.token }), 403);
    const other = await createWorld();
    expectError(
      await api(`${base(other.account.id)}/${app.id}`, { token: other.admin.token }),
      404,
    );
    expect(await api(base(other.account.id), { token: other.admin.token })).toMatchObject({
      status: 200,
      body: [],
    });
    expect(await stored(account.id)).toHaveLength(1);
  });

  it("integrations/apps lists dashboard_apps, enabled once the account has one; it takes no hooks", async () => {
    const { account, admin } = await createWorld();
    const apps = async () =>
      (await api(`/api/v1/accounts/${account.id}/integrations/apps`, { token: admin.token })).body
        .payload as { id: string; enabled: boolean; hooks: unknown[]; action: string | null }[];
    expect((await apps()).find((a) => a.id === "dashboard_apps")).toMatchObject({
      enabled: false,
      hooks: [],
      action: null,
    });
    await create(account.id, admin.token, { title: "O", content: [{ type: "frame", url: CRM }] });
    expect((await apps()).find((a) => a.id === "dashboard_apps")?.enabled).toBe(true);
    const hook = await api(`/api/v1/accounts/${account.id}/integrations/hooks`, {
      method: "POST",
      token: admin.token,
      body: { app_id: "dashboard_apps", settings: { url: CRM } },
    });
    expectError(hook, 422);
    expect(hook.body.error).toMatch(/dashboard_apps/);
  });
});

const appPath = async (w: Awaited<ReturnType<typeof createWorld>>) =>
  `${base(w.account.id)}/${(await create(w.account.id, w.admin.token, { title: "A", content: [{ type: "frame", url: CRM }] })).id}`;

describeAuthMatrix("GET dashboard_apps", { method: "GET", path: (w) => base(w.account.id) });
describeAuthMatrix("GET dashboard_apps/{id}", { method: "GET", path: appPath });
describeAuthMatrix("POST dashboard_apps", {
  method: "POST",
  path: (w) => base(w.account.id),
  body: { title: "A", content: [{ type: "frame", url: CRM }] },
  adminOnly: true,
});
describeAuthMatrix("PATCH dashboard_apps/{id}", {
  method: "PATCH",
  path: appPath,
  body: { title: "B" },
  adminOnly: true,
});
describeAuthMatrix("DELETE dashboard_apps/{id}", {
  method: "DELETE",
  path: appPath,
  adminOnly: true,
});
