import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { attachBot, createAgentBot, createInbox, createWorld } from "../../support/factories";
import { botAttachments, botRow, tokenRowOf } from "../../support/factories-users";
import { api, expectError } from "../../support/http";

const botsPath = (accountId: number) => `/api/v1/accounts/${accountId}/agent_bots`;
const botPath = (accountId: number, id: number | string) => `${botsPath(accountId)}/${id}`;

const BASE_FIELDS = [
  "account_id",
  "bot_config",
  "bot_type",
  "description",
  "id",
  "name",
  "system_bot",
  "thumbnail",
];

/** The spec's agent bot record as each viewer sees it. */
function expectBot(body: Record<string, unknown>, viewer: "administrator" | "agent") {
  const system = body.account_id === null;
  const extra = system
    ? []
    : viewer === "administrator"
      ? ["access_token", "outgoing_url", "secret"]
      : ["outgoing_url"];
  expect(Object.keys(body).sort()).toEqual([...BASE_FIELDS, ...extra].sort());
  expect(body).toMatchObject({
    id: expect.any(Number),
    name: expect.any(String),
    description: expect.any(String),
    thumbnail: expect.any(String),
    bot_type: "webhook",
    bot_config: expect.any(Object),
    system_bot: system,
  });
  for (const key of extra) {
    expect(typeof body[key]).toBe("string");
  }
}

describe("GET /api/v1/accounts/{account_id}/agent_bots", () => {
  it("lists the account's bots and the system bots as a bare array", async () => {
    const { account, admin, bot } = await createWorld();
    const system = await createAgentBot({ outgoingUrl: "https://system.example/hook" });
    const elsewhere = await createWorld();
    const res = await api(botsPath(account.id), { token: admin.token });
    expect(res.status).toBe(200);
    const ids = res.body.map((b: { id: number }) => b.id);
    expect(ids).toEqual(expect.arrayContaining([bot.id, system.id]));
    expect(ids).not.toContain(elsewhere.bot.id);
    for (const item of res.body) {
      expectBot(item, "administrator");
    }
    const own = res.body.find((b: { id: number }) => b.id === bot.id);
    expect(own).toMatchObject({
      access_token: bot.token,
      secret: bot.secret,
      account_id: account.id,
    });
    const shownSystem = res.body.find((b: { id: number }) => b.id === system.id);
    expect(shownSystem).not.toHaveProperty("outgoing_url");
    expect(shownSystem).not.toHaveProperty("access_token");
  });

  it("hides tokens and secrets from agents", async () => {
    const { account, agent, bot } = await createWorld();
    const res = await api(botsPath(account.id), { token: agent.token });
    expect(res.status).toBe(200);
    for (const item of res.body) {
      expectBot(item, "agent");
    }
    expect(JSON.stringify(res.body)).not.toContain(bot.token);
  });
});

describe("GET /api/v1/accounts/{account_id}/agent_bots/{id} (E15)", () => {
  it("shows an account bot and a system bot", async () => {
    const { account, agent, admin, bot } = await createWorld();
    const own = await api(botPath(account.id, bot.id), { token: admin.token });
    expect(own.status).toBe(200);
    expectBot(own.body, "administrator");
    expect(own.body).toMatchObject({
      id: bot.id,
      name: bot.name,
      account_id: account.id,
      system_bot: false,
    });
    const system = await createAgentBot();
    const res = await api(botPath(account.id, system.id), { token: agent.token });
    expect(res.status).toBe(200);
    expectBot(res.body, "agent");
    expect(res.body).toMatchObject({ id: system.id, account_id: null, system_bot: true });
  });

  it("answers 404 for another account's bot, an unknown and a malformed id", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    expectError(
      await api(botPath(account.id, other.bot.id), { token: admin.token }),
      404,
      "not_found",
    );
    expectError(await api(botPath(account.id, 999999999), { token: admin.token }), 404);
    expectError(await api(botPath(account.id, "abc"), { token: admin.token }), 404);
  });
});

describe("POST /api/v1/accounts/{account_id}/agent_bots", () => {
  it("creates a bot in the account with a token and secret, from a wrapped body", async () => {
    const { account, admin } = await createWorld();
    const res = await api(botsPath(account.id), {
      token: admin.token,
      body: {
        agent_bot: { name: "Helper", outgoing_url: "https://h.example/in", bot_config: { a: 1 } },
      },
    });
    expect(res.status).toBe(200);
    expectBot(res.body, "administrator");
    expect(res.body).toMatchObject({
      name: "Helper",
      outgoing_url: "https://h.example/in",
      bot_config: { a: 1 },
      account_id: account.id,
      system_bot: false,
    });
    expect((await tokenRowOf("AgentBot", res.body.id))?.token).toBe(res.body.access_token);
    expect((await botRow(res.body.id))?.secret).toBe(res.body.secret);
  });

  it("answers 422 listing each invalid field, and creates nothing", async () => {
    const { account, admin } = await createWorld();
    const before = (await api(botsPath(account.id), { token: admin.token })).body.length;
    const err = expectError(
      await api(botsPath(account.id), {
        token: admin.token,
        body: { name: "", outgoing_url: "javascript:alert(1)", bot_config: "x" },
      }),
      422,
      "validation_failed",
    );
    expect(err.details.map((d) => d.path).sort()).toEqual(["bot_config", "name", "outgoing_url"]);
    expect((await api(botsPath(account.id), { token: admin.token })).body).toHaveLength(before);
  });

  it("ignores an account_id in the body", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const res = await api(botsPath(account.id), {
      token: admin.token,
      body: { name: "Mine", account_id: other.account.id },
    });
    expect(res.body.account_id).toBe(account.id);
  });
});

describe("PATCH /api/v1/accounts/{account_id}/agent_bots/{id}", () => {
  it("changes only the given fields", async () => {
    const { account, admin, bot } = await createWorld();
    const res = await api(botPath(account.id, bot.id), {
      method: "PATCH",
      token: admin.token,
      body: { agent_bot: { description: "Now described", thumbnail: "https://cdn.example/b.png" } },
    });
    expect(res.status).toBe(200);
    expectBot(res.body, "administrator");
    expect(res.body).toMatchObject({
      name: bot.name,
      description: "Now described",
      thumbnail: "https://cdn.example/b.png",
    });
  });

  it("answers 404 for system bots and other accounts' bots, 422 for bad input, changing nothing", async () => {
    const { account, admin, bot } = await createWorld();
    const system = await createAgentBot();
    const other = await createWorld();
    const patch = (id: number, body: unknown) =>
      api(botPath(account.id, id), { method: "PATCH", token: admin.token, body });
    expectError(await patch(system.id, { name: "mine now" }), 404);
    expectError(await patch(other.bot.id, { name: "mine now" }), 404);
    expectError(await patch(bot.id, { name: 5 }), 422);
    expect((await botRow(system.id))?.name).toBe(system.name);
    expect((await botRow(other.bot.id))?.name).toBe(other.bot.name);
    expect((await botRow(bot.id))?.name).toBe(bot.name);
  });
});

describe("DELETE /api/v1/accounts/{account_id}/agent_bots/{id}", () => {
  it("deletes the bot with its token and inbox attachments", async () => {
    const { account, admin, bot } = await createWorld();
    const second = await createInbox(account.id);
    await attachBot(account.id, second.id, bot.id);
    const res = await api(botPath(account.id, bot.id), { method: "DELETE", token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await botRow(bot.id)).toBeUndefined();
    expect(await tokenRowOf("AgentBot", bot.id)).toBeUndefined();
    expect(await botAttachments(bot.id)).toEqual([]);
    expectError(
      await api(`/api/v1/accounts/${account.id}`, { token: bot.token }),
      401,
      "invalid_token",
    );
  });

  it("answers 404 for system bots and other accounts' bots, and keeps them", async () => {
    const { account, admin } = await createWorld();
    const system = await createAgentBot();
    const other = await createWorld();
    expectError(
      await api(botPath(account.id, system.id), { method: "DELETE", token: admin.token }),
      404,
    );
    expectError(
      await api(botPath(account.id, other.bot.id), { method: "DELETE", token: admin.token }),
      404,
    );
    expect(await botRow(system.id)).toBeDefined();
    expect(await botRow(other.bot.id)).toBeDefined();
  });
});

describe("POST /api/v1/accounts/{account_id}/agent_bots/{id}/reset_access_token", () => {
  it("replaces the token: the old one stops working, the new one works", async () => {
    const { account, admin, bot } = await createWorld();
    const res = await api(`${botPath(account.id, bot.id)}/reset_access_token`, {
      method: "POST",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expectBot(res.body, "administrator");
    expect(res.body.access_token).not.toBe(bot.token);
    expect((await tokenRowOf("AgentBot", bot.id))?.token).toBe(res.body.access_token);
    expectError(await api(botsPath(account.id), { token: bot.token }), 401, "invalid_token");
    expectError(
      await api(botsPath(account.id), { token: res.body.access_token }),
      401,
      "not_authorized_for_bots",
    );
  });

  it("answers 404 for a system bot", async () => {
    const { account, admin } = await createWorld();
    const system = await createAgentBot();
    expectError(
      await api(`${botPath(account.id, system.id)}/reset_access_token`, {
        method: "POST",
        token: admin.token,
      }),
      404,
    );
    expect((await tokenRowOf("AgentBot", system.id))?.token).toBe(system.token);
  });
});

describeAuthMatrix("GET agent_bots", { method: "GET", path: (w) => botsPath(w.account.id) });
describeAuthMatrix("GET agent_bots/{id}", {
  method: "GET",
  path: (w) => botPath(w.account.id, w.bot.id),
});
describeAuthMatrix("POST agent_bots", {
  method: "POST",
  path: (w) => botsPath(w.account.id),
  body: { name: "Blocked" },
  adminOnly: true,
});
describeAuthMatrix("PATCH agent_bots/{id}", {
  method: "PATCH",
  path: (w) => botPath(w.account.id, w.bot.id),
  body: { name: "Blocked" },
  adminOnly: true,
});
describeAuthMatrix("DELETE agent_bots/{id}", {
  method: "DELETE",
  path: (w) => botPath(w.account.id, w.bot.id),
  adminOnly: true,
});
describeAuthMatrix("POST agent_bots/{id}/reset_access_token", {
  method: "POST",
  path: (w) => `${botPath(w.account.id, w.bot.id)}/reset_access_token`,
  adminOnly: true,
});
