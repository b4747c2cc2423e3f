import { describe, expect, it } from "vitest";
import {
  attachBot,
  createAccount,
  createAgentBot,
  createInbox,
  createPlatformApp,
  permit,
} from "../../support/factories";
import {
  botAttachments,
  botRow,
  createManagedAccount,
  grantsOf,
  tokenRowOf,
} from "../../support/factories-users";
import { api, expectError } from "../../support/http";

const BOTS = "/platform/api/v1/agent_bots";

const BOT_FIELDS = [
  "access_token",
  "account_id",
  "bot_config",
  "bot_type",
  "description",
  "id",
  "name",
  "outgoing_url",
  "secret",
  "system_bot",
  "thumbnail",
];

/** The spec's agent bot record plus the secret, which the creating app may see. */
function expectPlatformBot(body: Record<string, unknown>) {
  expect(Object.keys(body).sort()).toEqual(BOT_FIELDS);
  expect(body).toMatchObject({
    id: expect.any(Number),
    name: expect.any(String),
    description: expect.any(String),
    thumbnail: expect.any(String),
    outgoing_url: expect.any(String),
    bot_type: "webhook",
    bot_config: expect.any(Object),
    access_token: expect.stringMatching(/^\w{24}$/),
    system_bot: expect.any(Boolean),
    secret: expect.any(String),
  });
  expect(body.account_id === null || Number.isInteger(body.account_id)).toBe(true);
  expect(body.system_bot).toBe(body.account_id === null);
}

const createBot = (token: string, body: unknown) => api(BOTS, { token, body });

describe("POST /platform/api/v1/agent_bots", () => {
  it("creates a system bot with a token, a secret and a grant", async () => {
    const app = await createPlatformApp();
    const res = await createBot(app.token, {
      name: "Triage",
      description: "Sorts things",
      outgoing_url: "https://bot.example.com/hook",
      avatar_url: "https://cdn.example.com/bot.png",
      bot_config: { model: "small" },
    });
    expect(res.status).toBe(200);
    expectPlatformBot(res.body);
    expect(res.body).toMatchObject({
      name: "Triage",
      description: "Sorts things",
      outgoing_url: "https://bot.example.com/hook",
      thumbnail: "https://cdn.example.com/bot.png",
      bot_config: { model: "small" },
      account_id: null,
      system_bot: true,
    });
    expect(atob(res.body.secret)).toHaveLength(32);
    expect((await tokenRowOf("AgentBot", res.body.id))?.token).toBe(res.body.access_token);
    expect((await grantsOf("AgentBot", res.body.id)).map((g) => g.platformAppId)).toEqual([app.id]);
  });

  it("creates an account bot in an account the app manages, from a wrapped body", async () => {
    const app = await createPlatformApp();
    const account = await createManagedAccount(app.id);
    const res = await createBot(app.token, {
      agent_bot: { name: "Helper", account_id: account.id, bot_type: 0 },
    });
    expect(res.status).toBe(200);
    expectPlatformBot(res.body);
    expect(res.body).toMatchObject({
      name: "Helper",
      account_id: account.id,
      system_bot: false,
      description: "",
      outgoing_url: "",
      thumbnail: "",
      bot_config: {},
    });
  });

  it("answers 404 for an account the app does not manage, and creates nothing", async () => {
    const app = await createPlatformApp();
    const foreign = await createAccount();
    expectError(await createBot(app.token, { name: "Sneaky", account_id: foreign.id }), 404);
    expectError(await createBot(app.token, { name: "Sneaky", account_id: 999999999 }), 404);
    expect((await api(BOTS, { token: app.token })).body).toEqual([]);
  });

  it("answers 422 listing each invalid field", async () => {
    const app = await createPlatformApp();
    const err = expectError(
      await createBot(app.token, {
        outgoing_url: "ftp://bot.example.com",
        avatar_url: "not a url",
        bot_type: "csml",
        bot_config: [],
        account_id: "1",
      }),
      422,
      "validation_failed",
    );
    expect(err.details.map((d) => d.path).sort()).toEqual([
      "account_id",
      "avatar_url",
      "bot_config",
      "bot_type",
      "name",
      "outgoing_url",
    ]);
    expect((await api(BOTS, { token: app.token })).body).toEqual([]);
  });

  it("refuses missing and non-platform tokens", async () => {
    const bot = await createAgentBot();
    expectError(await api(BOTS, { body: { name: "x" } }), 401, "unauthorized");
    expectError(await createBot(bot.token, { name: "x" }), 401, "invalid_token");
  });
});

describe("GET /platform/api/v1/agent_bots", () => {
  it("lists only the bots this app created", async () => {
    const app = await createPlatformApp();
    const other = await createPlatformApp();
    const a = await createBot(app.token, { name: "A" });
    const b = await createBot(app.token, { name: "B" });
    await createBot(other.token, { name: "C" });
    await createAgentBot();
    const res = await api(BOTS, { token: app.token });
    expect(res.status).toBe(200);
    expect(res.body.map((bot: { id: number }) => bot.id)).toEqual([a.body.id, b.body.id]);
    for (const bot of res.body) {
      expectPlatformBot(bot);
    }
  });
});

describe("GET, PATCH, DELETE /platform/api/v1/agent_bots/{id}", () => {
  it("shows and partially updates the app's bot", async () => {
    const app = await createPlatformApp();
    const account = await createManagedAccount(app.id);
    const created = await createBot(app.token, {
      name: "Bot",
      description: "d",
      outgoing_url: "http://a.example",
    });
    const path = `${BOTS}/${created.body.id}`;
    const shown = await api(path, { token: app.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(created.body);
    const res = await api(path, {
      method: "PATCH",
      token: app.token,
      body: { name: "Renamed", description: null, account_id: account.id },
    });
    expect(res.status).toBe(200);
    expectPlatformBot(res.body);
    expect(res.body).toMatchObject({
      name: "Renamed",
      description: "",
      outgoing_url: "http://a.example",
      account_id: account.id,
      system_bot: false,
      access_token: created.body.access_token,
      secret: created.body.secret,
    });
  });

  it("answers 422 or 404 to bad updates and changes nothing", async () => {
    const app = await createPlatformApp();
    const created = await createBot(app.token, { name: "Bot" });
    const path = `${BOTS}/${created.body.id}`;
    expectError(
      await api(path, { method: "PATCH", token: app.token, body: { name: "", outgoing_url: "x" } }),
      422,
    );
    const foreign = await createAccount();
    expectError(
      await api(path, { method: "PATCH", token: app.token, body: { account_id: foreign.id } }),
      404,
    );
    expect(await botRow(created.body.id)).toMatchObject({
      name: "Bot",
      accountId: null,
      outgoingUrl: null,
    });
  });

  it("deletes the bot with its token, grants and inbox attachments", async () => {
    const app = await createPlatformApp();
    const account = await createManagedAccount(app.id);
    const created = await createBot(app.token, { name: "Bot", account_id: account.id });
    const inbox = await createInbox(account.id);
    await attachBot(account.id, inbox.id, created.body.id);
    const res = await api(`${BOTS}/${created.body.id}`, { method: "DELETE", token: app.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await botRow(created.body.id)).toBeUndefined();
    expect(await tokenRowOf("AgentBot", created.body.id)).toBeUndefined();
    expect(await grantsOf("AgentBot", created.body.id)).toEqual([]);
    expect(await botAttachments(created.body.id)).toEqual([]);
    expectError(await api(`${BOTS}/${created.body.id}`, { token: app.token }), 404);
  });

  it("answers 404 to another app, for unknown and malformed ids", async () => {
    const owner = await createPlatformApp();
    const stranger = await createPlatformApp();
    const created = await createBot(owner.token, { name: "Mine" });
    const path = `${BOTS}/${created.body.id}`;
    expectError(await api(path, { token: stranger.token }), 404, "not_found");
    expectError(
      await api(path, { method: "PATCH", token: stranger.token, body: { name: "x" } }),
      404,
    );
    expectError(await api(path, { method: "DELETE", token: stranger.token }), 404);
    expectError(await api(`${BOTS}/999999999`, { token: owner.token }), 404);
    expectError(await api(`${BOTS}/1e3`, { token: owner.token }), 404);
    expect(await botRow(created.body.id)).toMatchObject({ name: "Mine" });
  });

  it("answers 404 for a bot granted to the app but already gone", async () => {
    const app = await createPlatformApp();
    await permit(app.id, "AgentBot", 999999998);
    expectError(await api(`${BOTS}/999999998`, { token: app.token }), 404);
  });
});

describe("OpenAPI document", () => {
  it("documents the users, account users and agent bot endpoints", async () => {
    const { body } = await api("/openapi.json");
    const methods = (path: string) => Object.keys(body.paths[path] ?? {}).sort();
    expect(methods("/platform/api/v1/users")).toEqual(["post"]);
    expect(methods("/platform/api/v1/users/{id}")).toEqual(["delete", "get", "patch"]);
    expect(methods("/platform/api/v1/accounts/{account_id}/account_users")).toEqual([
      "delete",
      "get",
      "post",
    ]);
    expect(methods("/platform/api/v1/agent_bots")).toEqual(["get", "post"]);
    expect(methods("/platform/api/v1/agent_bots/{id}")).toEqual(["delete", "get", "patch"]);
    expect(methods("/api/v1/accounts/{account_id}/agent_bots")).toEqual(["get", "post"]);
    expect(methods("/api/v1/accounts/{account_id}/agent_bots/{id}")).toEqual([
      "delete",
      "get",
      "patch",
    ]);
    expect(methods("/api/v1/accounts/{account_id}/agent_bots/{id}/reset_access_token")).toEqual([
      "post",
    ]);
    expect(body.components.schemas.PlatformAgentBotCreate.required).toEqual(["name"]);
    expect(Object.keys(body.components.schemas.User.properties)).toContain("hmac_identifier");
  });
});
