import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { addInboxMember, createAgentBot, createInbox, createWorld } from "../../support/factories";
import { findBotLink } from "../../support/factories-inboxes";
import { api, expectError } from "../../support/http";

const inboxes = (accountId: number) => `/api/v1/accounts/${accountId}/inboxes`;

describe("agent bot of an inbox", () => {
  const botPath = (a: number, i: number) => `${inboxes(a)}/${i}/agent_bot`;
  const setPath = (a: number, i: number) => `${inboxes(a)}/${i}/set_agent_bot`;

  it("shows the attached bot, and null when there is none", async () => {
    const { account, admin, bot, inbox } = await createWorld();
    const res = await api(botPath(account.id, inbox.id), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      agent_bot: {
        id: bot.id,
        name: bot.name,
        description: null,
        thumbnail: "",
        bot_type: "webhook",
        account_id: account.id,
      },
    });
    const bare = await createInbox(account.id);
    expect((await api(botPath(account.id, bare.id), { token: admin.token })).body).toEqual({
      agent_bot: null,
    });
  });

  it("hides the bot of an inbox the agent is not a member of", async () => {
    const { account, agent, inbox } = await createWorld();
    expectError(await api(botPath(account.id, inbox.id), { token: agent.token }), 404);
    await addInboxMember(inbox.id, agent.id);
    expect((await api(botPath(account.id, inbox.id), { token: agent.token })).status).toBe(200);
  });

  it("attaches the account's bot or a system bot, and detaches with null", async () => {
    const { account, admin } = await createWorld();
    const inbox = await createInbox(account.id);
    const own = await createAgentBot({ accountId: account.id });
    const system = await createAgentBot({ accountId: null });
    const set = (agent_bot: unknown) =>
      api(setPath(account.id, inbox.id), { token: admin.token, body: { agent_bot } });

    const attached = await set(own.id);
    expect(attached.status).toBe(204);
    expect(attached.body).toBeNull();
    expect((await findBotLink(inbox.id))?.agentBotId).toBe(own.id);
    expect((await set(String(system.id))).status).toBe(204);
    expect((await findBotLink(inbox.id))?.agentBotId).toBe(system.id);
    expect((await set(null)).status).toBe(204);
    expect(await findBotLink(inbox.id)).toBeUndefined();
  });

  it("answers 404 for another account's bot or an unknown one, 422 without agent_bot", async () => {
    const { account, admin, bot, inbox } = await createWorld();
    const other = await createWorld();
    const path = setPath(account.id, inbox.id);
    expectError(await api(path, { token: admin.token, body: { agent_bot: other.bot.id } }), 404);
    expectError(await api(path, { token: admin.token, body: { agent_bot: 999_999_999 } }), 404);
    const err = expectError(await api(path, { token: admin.token, body: {} }), 422);
    expect(err.details.map((d) => d.path)).toEqual(["agent_bot"]);
    expect((await findBotLink(inbox.id))?.agentBotId).toBe(bot.id);
    expectError(
      await api(setPath(account.id, other.inbox.id), {
        token: admin.token,
        body: { agent_bot: null },
      }),
      404,
    );
    expect(await findBotLink(other.inbox.id)).toBeDefined();
  });
});

describeAuthMatrix("GET inbox agent_bot", {
  method: "GET",
  path: (w) => `${inboxes(w.account.id)}/${w.inbox.id}/agent_bot`,
});
describeAuthMatrix("POST inbox set_agent_bot", {
  method: "POST",
  path: (w) => `${inboxes(w.account.id)}/${w.inbox.id}/set_agent_bot`,
  body: { agent_bot: null },
  adminOnly: true,
});
