import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createAgent, createTeam, createUser, createWorld, db } from "../../support/factories";
import { addTeamMember } from "../../support/factories-teams";
import { api, expectError } from "../../support/http";

const members = (accountId: number, teamId: number | string) =>
  `/api/v1/accounts/${accountId}/teams/${teamId}/team_members`;

const idsOf = (body: { id: number }[]) => body.map((m) => m.id).sort((a, b) => a - b);

async function memberIds(accountId: number, teamId: number, token: string) {
  const res = await api(members(accountId, teamId), { token });
  expect(res.status).toBe(200);
  return idsOf(res.body);
}

describe("GET /api/v1/accounts/{account_id}/teams/{team_id}/team_members", () => {
  it("returns a bare array of agent records", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    await addTeamMember(team.id, agent.id);
    await addTeamMember(team.id, admin.id);
    await db()
      .update(t.users)
      .set({ displayName: "Ada", avatarUrl: "https://cdn.test/a.png" })
      .where(eq(t.users.id, admin.id));

    const res = await api(members(account.id, team.id), { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: admin.id,
        account_id: account.id,
        // Chose online, auto_offline, no socket open: offline (live presence).
        availability_status: "offline",
        auto_offline: true,
        confirmed: true,
        email: admin.email,
        available_name: "Ada",
        name: admin.name,
        role: "administrator",
        thumbnail: "https://cdn.test/a.png",
        custom_role_id: null,
      },
      {
        id: agent.id,
        account_id: account.id,
        // Chose online, auto_offline, no socket open: offline (live presence).
        availability_status: "offline",
        auto_offline: true,
        confirmed: true,
        email: agent.email,
        available_name: agent.name,
        name: agent.name,
        role: "agent",
        thumbnail: "",
        custom_role_id: null,
      },
    ]);
  });

  it("leaves out users who are no longer in the account", async () => {
    const { account, admin } = await createWorld();
    const team = await createTeam(account.id);
    const leaver = await createAgent(account.id);
    await addTeamMember(team.id, leaver.id);
    await db().delete(t.accountUsers).where(eq(t.accountUsers.userId, leaver.id));
    expect(await memberIds(account.id, team.id, admin.token)).toEqual([]);
  });

  it("answers 404 for unknown, malformed and other accounts' teams", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const foreign = await createTeam(other.account.id);
    for (const id of [String(foreign.id), "999999999", "abc"]) {
      expectError(await api(members(account.id, id), { token: admin.token }), 404, "not_found");
    }
  });
});

describe("POST /api/v1/accounts/{account_id}/teams/{team_id}/team_members", () => {
  it("adds the listed users and returns them; existing members stay", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    const kept = await createAgent(account.id);
    await addTeamMember(team.id, kept.id);

    const res = await api(members(account.id, team.id), {
      method: "POST",
      token: admin.token,
      body: { user_ids: [agent.id, String(admin.id), agent.id] },
    });
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([admin.id, agent.id].sort((a, b) => a - b));
    expect(res.body.find((m: { id: number }) => m.id === agent.id)).toMatchObject({
      email: agent.email,
      role: "agent",
    });
    expect(await memberIds(account.id, team.id, admin.token)).toEqual(
      [admin.id, agent.id, kept.id].sort((a, b) => a - b),
    );
  });

  it("is idempotent for users who are already members", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    await addTeamMember(team.id, agent.id);
    const res = await api(members(account.id, team.id), {
      method: "POST",
      token: admin.token,
      body: { user_ids: [agent.id] },
    });
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([agent.id]);
    expect(await memberIds(account.id, team.id, admin.token)).toEqual([agent.id]);
  });

  it("marks the team is_member for a newly added caller", async () => {
    const { account, agent, admin } = await createWorld();
    const team = await createTeam(account.id);
    await api(members(account.id, team.id), {
      method: "POST",
      token: admin.token,
      body: { user_ids: [agent.id] },
    });
    const shown = await api(`/api/v1/accounts/${account.id}/teams/${team.id}`, {
      token: agent.token,
    });
    expect(shown.body.is_member).toBe(true);
  });

  it("answers 422 naming ids that are not users of the account, and adds nobody", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    const outsider = await createUser();
    const other = await createWorld();
    const res = await api(members(account.id, team.id), {
      method: "POST",
      token: admin.token,
      body: { user_ids: [agent.id, outsider.id, other.agent.id, 999999999] },
    });
    const err = expectError(res, 422, "validation_failed");
    expect(err.details).toEqual([
      {
        path: "user_ids",
        message: `not users of this account: ${outsider.id}, ${other.agent.id}, 999999999`,
      },
    ]);
    expect(await memberIds(account.id, team.id, admin.token)).toEqual([]);
  });

  it("answers 422 for a missing or mistyped user_ids", async () => {
    const { account, admin } = await createWorld();
    const team = await createTeam(account.id);
    for (const body of [
      {},
      { user_ids: "1" },
      { user_ids: [1.5] },
      { user_ids: ["abc"] },
      { user_ids: [null] },
    ]) {
      const err = expectError(
        await api(members(account.id, team.id), { method: "POST", token: admin.token, body }),
        422,
      );
      expect(err.details[0]?.path).toMatch(/^user_ids/);
    }
  });

  it("answers 404 for another account's team even with valid ids", async () => {
    const { account, admin, agent } = await createWorld();
    const other = await createWorld();
    const foreign = await createTeam(other.account.id);
    const res = await api(members(account.id, foreign.id), {
      method: "POST",
      token: admin.token,
      body: { user_ids: [agent.id] },
    });
    expectError(res, 404);
    expect(await memberIds(other.account.id, foreign.id, other.admin.token)).toEqual([]);
  });
});

describe("PATCH /api/v1/accounts/{account_id}/teams/{team_id}/team_members", () => {
  it("replaces the members and returns the full list", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    const dropped = await createAgent(account.id);
    await addTeamMember(team.id, agent.id);
    await addTeamMember(team.id, dropped.id);

    const res = await api(members(account.id, team.id), {
      method: "PATCH",
      token: admin.token,
      body: { user_ids: [agent.id, admin.id] },
    });
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([admin.id, agent.id].sort((a, b) => a - b));
    expect(await memberIds(account.id, team.id, admin.token)).toEqual(
      [admin.id, agent.id].sort((a, b) => a - b),
    );
  });

  it("empties the team with an empty list", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    await addTeamMember(team.id, agent.id);
    const res = await api(members(account.id, team.id), {
      method: "PATCH",
      token: admin.token,
      body: { user_ids: [] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("handles lists longer than D1's bound-parameter limit", async () => {
    const { account, admin } = await createWorld();
    const team = await createTeam(account.id);
    const agents = [];
    for (let i = 0; i < 60; i++) {
      agents.push(await createAgent(account.id));
    }
    const ids = agents.map((a) => a.id);
    const res = await api(members(account.id, team.id), {
      method: "PATCH",
      token: admin.token,
      body: { user_ids: ids },
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(60);
    const second = await api(members(account.id, team.id), {
      method: "PATCH",
      token: admin.token,
      body: { user_ids: ids.slice(55) },
    });
    expect(idsOf(second.body)).toEqual(ids.slice(55));
  });

  it("answers 422 for ids outside the account, and changes nothing", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    await addTeamMember(team.id, agent.id);
    const other = await createWorld();
    const res = await api(members(account.id, team.id), {
      method: "PATCH",
      token: admin.token,
      body: { user_ids: [admin.id, other.admin.id] },
    });
    expect(expectError(res, 422).error).toContain(String(other.admin.id));
    expect(await memberIds(account.id, team.id, admin.token)).toEqual([agent.id]);
  });
});

describe("DELETE /api/v1/accounts/{account_id}/teams/{team_id}/team_members", () => {
  it("removes only the listed users and answers {}", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    await addTeamMember(team.id, agent.id);
    await addTeamMember(team.id, admin.id);
    const res = await api(members(account.id, team.id), {
      method: "DELETE",
      token: admin.token,
      body: { user_ids: [`${agent.id}`] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await memberIds(account.id, team.id, admin.token)).toEqual([admin.id]);
  });

  it("answers 422 for ids outside the account, and removes nobody", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    await addTeamMember(team.id, agent.id);
    const res = await api(members(account.id, team.id), {
      method: "DELETE",
      token: admin.token,
      body: { user_ids: [agent.id, 999999999] },
    });
    expect(expectError(res, 422).error).toContain("999999999");
    expect(await memberIds(account.id, team.id, admin.token)).toEqual([agent.id]);
  });

  it("answers 422 without user_ids and 404 for another account's team", async () => {
    const { account, admin } = await createWorld();
    const team = await createTeam(account.id);
    expectError(
      await api(members(account.id, team.id), { method: "DELETE", token: admin.token }),
      422,
    );
    const other = await createWorld();
    const foreign = await createTeam(other.account.id);
    await addTeamMember(foreign.id, other.agent.id);
    expectError(
      await api(members(account.id, foreign.id), {
        method: "DELETE",
        token: admin.token,
        body: { user_ids: [] },
      }),
      404,
    );
    expect(await memberIds(other.account.id, foreign.id, other.admin.token)).toEqual([
      other.agent.id,
    ]);
  });
});

const teamPath = async (w: Awaited<ReturnType<typeof createWorld>>) =>
  members(w.account.id, (await createTeam(w.account.id)).id);

describeAuthMatrix("GET team_members", { method: "GET", path: teamPath });
describeAuthMatrix("POST team_members", {
  method: "POST",
  path: teamPath,
  body: { user_ids: [] },
  adminOnly: true,
});
describeAuthMatrix("PATCH team_members", {
  method: "PATCH",
  path: teamPath,
  body: { user_ids: [] },
  adminOnly: true,
});
describeAuthMatrix("DELETE team_members", {
  method: "DELETE",
  path: teamPath,
  body: { user_ids: [] },
  adminOnly: true,
});
