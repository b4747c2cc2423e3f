import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import {
  addInboxMember,
  createAccount,
  createAgent,
  createWorld,
  db,
  type TestUser,
} from "../../support/factories";
import { createPublicConversation, createPublicWorld } from "../../support/factories-public";
import { api, expectError } from "../../support/http";
import { type LiveSocket, openSocket, settle } from "../../support/ws";

const AVAILABILITY = "/api/v1/profile/availability";
const AUTO_OFFLINE = "/api/v1/profile/auto_offline";

const membership = (accountId: number, userId: number) =>
  db()
    .select()
    .from(t.accountUsers)
    .where(and(eq(t.accountUsers.accountId, accountId), eq(t.accountUsers.userId, userId)))
    .get();

const choose = (user: TestUser, body: unknown, path = AVAILABILITY) =>
  api(path, { token: user.token, body });

/** The next presence.update about `userId` (a socket's own arrival is one too). */
async function presenceOf(socket: LiveSocket, userId: number) {
  for (;;) {
    const f = await socket.next("presence.update", 10_000);
    if (String(userId) in f.data.users) {
      return f.data.users[userId];
    }
  }
}

const statusIn = (body: any, accountId: number) =>
  body.accounts.find((a: { id: number }) => a.id === accountId);

describe("POST /api/v1/profile/availability", () => {
  it("sets the agent's own availability; busy stands over an open socket; others hear presence.update", async () => {
    const { account, admin, agent } = await createWorld();
    const watcher = await openSocket(`/api/v1/accounts/${account.id}/live`, {
      api_access_token: admin.token,
    });
    await watcher.next("ready");
    // Chatwoot's body: {profile: {account_id, availability}}.
    const busy = await choose(agent, { profile: { account_id: account.id, availability: "busy" } });
    expect(busy.status).toBe(200);
    expect(busy.body.id).toBe(agent.id);
    expect(statusIn(busy.body, account.id)).toMatchObject({
      availability: "busy",
      availability_status: "busy",
    });
    expect(await presenceOf(watcher, agent.id)).toBe("busy");

    // The agent's own socket opens: they stay busy for everyone.
    const own = await openSocket(`/api/v1/accounts/${account.id}/live`, {
      api_access_token: agent.token,
    });
    await own.next("ready");
    expect(await presenceOf(watcher, agent.id)).toBe("busy");
    const listed = await api(`/api/v1/accounts/${account.id}/agents`, { token: admin.token });
    expect(listed.body.find((a: { id: number }) => a.id === agent.id).availability_status).toBe(
      "busy",
    );

    // Online again, with a socket open: online; then offline by choice, socket or not.
    const online = await choose(agent, { account_id: String(account.id), availability: "online" });
    expect(statusIn(online.body, account.id).availability_status).toBe("online");
    expect(await presenceOf(watcher, agent.id)).toBe("online");
    const offline = await choose(agent, { account_id: account.id, availability: "offline" });
    expect(statusIn(offline.body, account.id).availability_status).toBe("offline");
    expect(await presenceOf(watcher, agent.id)).toBe("offline");

    // The same choice again changes nothing anyone sees: no frame.
    await choose(agent, { account_id: account.id, availability: "offline" });
    await settle();
    const about = watcher
      .all("presence.update")
      .filter((f) => String(agent.id) in f.data.users)
      .map((f) => f.data.users[agent.id]);
    expect(about.at(-1)).toBe("offline");
    expect(about.filter((s) => s === "offline")).toHaveLength(1);
    own.close();
    watcher.close();
  });

  it("refuses bad input, other accounts and bots, changing nothing", async () => {
    const { account, agent, bot } = await createWorld();
    const other = await createAccount();
    const cases: [unknown, number][] = [
      [{ account_id: account.id, availability: "away" }, 422],
      [{ account_id: account.id }, 422],
      [{ availability: "busy" }, 422],
      [{ account_id: "1; DROP", availability: "busy" }, 422],
      [{ account_id: -1, availability: "busy" }, 422],
      [{ profile: "busy" }, 422],
      [[], 422],
      [{ account_id: other.id, availability: "busy" }, 404],
    ];
    for (const [body, status] of cases) {
      expectError(await choose(agent, body), status);
    }
    expectError(
      await api(AVAILABILITY, {
        token: bot.token,
        body: { account_id: account.id, availability: "busy" },
      }),
      401,
    );
    expectError(
      await api(AVAILABILITY, { body: { account_id: account.id, availability: "busy" } }),
      401,
    );
    expect((await membership(account.id, agent.id))?.availability).toBe("online");
    // Chatwoot's swagger calls online "available".
    const available = await choose(agent, { account_id: account.id, availability: "available" });
    expect(statusIn(available.body, account.id).availability).toBe("online");
  });

  it("a busy agent is not auto-assigned; back online, they take the inbox's queue", async () => {
    const w = await createPublicWorld({ enableAutoAssignment: true });
    const agent = await createAgent(w.account.id);
    await addInboxMember(w.inbox.id, agent.id);
    // Never offline for want of a socket: only the choice decides here.
    expect(
      (await choose(agent, { account_id: w.account.id, auto_offline: false }, AUTO_OFFLINE)).status,
    ).toBe(200);
    await choose(agent, { account_id: w.account.id, availability: "busy" });
    const { conversation } = await createPublicConversation(w.base);
    const before = await api(`/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`, {
      token: w.admin.token,
    });
    expect(before.body.meta.assignee).toBeNull();
    await choose(agent, { account_id: w.account.id, availability: "online" });
    const after = await api(`/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`, {
      token: w.admin.token,
    });
    expect(after.body.meta.assignee?.id).toBe(agent.id);
  });
});

describe("POST /api/v1/profile/auto_offline", () => {
  it("an online agent without a socket shows offline only with auto_offline on", async () => {
    const { account, admin, agent } = await createWorld();
    const watcher = await openSocket(`/api/v1/accounts/${account.id}/live`, {
      api_access_token: admin.token,
    });
    await watcher.next("ready");
    const off = await choose(agent, { profile: { account_id: account.id } }, AUTO_OFFLINE);
    // Chatwoot: auto_offline left out is false.
    expect(statusIn(off.body, account.id)).toMatchObject({
      auto_offline: false,
      availability_status: "online",
    });
    expect(await presenceOf(watcher, agent.id)).toBe("online");
    const on = await choose(agent, { account_id: account.id, auto_offline: true }, AUTO_OFFLINE);
    expect(statusIn(on.body, account.id)).toMatchObject({
      auto_offline: true,
      availability_status: "offline",
    });
    expect(await presenceOf(watcher, agent.id)).toBe("offline");
    expectError(
      await choose(agent, { account_id: account.id, auto_offline: "yes" }, AUTO_OFFLINE),
      422,
    );
    watcher.close();
  });
});

describe("PATCH /api/v1/accounts/{a}/agents/{id}: an administrator's change of availability", () => {
  it("sends presence.update as the agent's own choice does, once per change; back online takes the queue", async () => {
    const w = await createPublicWorld({ enableAutoAssignment: true });
    const agent = await createAgent(w.account.id);
    await addInboxMember(w.inbox.id, agent.id);
    const watcher = await openSocket(`/api/v1/accounts/${w.account.id}/live`, {
      api_access_token: w.admin.token,
    });
    await watcher.next("ready");
    const patch = (body: unknown) =>
      api(`/api/v1/accounts/${w.account.id}/agents/${agent.id}`, {
        method: "PATCH",
        token: w.admin.token,
        body,
      });
    // Never offline for want of a socket: only the choices decide here.
    expect((await patch({ auto_offline: false })).status).toBe(200);
    expect(await presenceOf(watcher, agent.id)).toBe("online");
    expect((await patch({ availability_status: "busy" })).body.availability_status).toBe("busy");
    expect(await presenceOf(watcher, agent.id)).toBe("busy");
    const { conversation } = await createPublicConversation(w.base);
    const show = () =>
      api(`/api/v1/accounts/${w.account.id}/conversations/${conversation.id}`, {
        token: w.admin.token,
      });
    expect((await show()).body.meta.assignee).toBeNull();

    // A change of role alone, or the same availability again, is no change anyone sees.
    await patch({ role: "agent", availability_status: "busy" });
    expect((await patch({ availability: "online" })).body.availability_status).toBe("online");
    expect(await presenceOf(watcher, agent.id)).toBe("online");
    expect((await show()).body.meta.assignee?.id).toBe(agent.id);
    await settle();
    const about = watcher
      .all("presence.update")
      .filter((f) => String(agent.id) in f.data.users)
      .map((f) => f.data.users[agent.id]);
    expect(about).toEqual(["online", "busy", "online"]);
    watcher.close();
  });
});
