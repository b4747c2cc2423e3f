import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import { createTeam, createWorld, unique } from "../../support/factories";
import { addTeamMember } from "../../support/factories-teams";
import { api, expectError } from "../../support/http";

const teams = (accountId: number) => `/api/v1/accounts/${accountId}/teams`;

describe("GET /api/v1/accounts/{account_id}/teams", () => {
  it("returns a bare array of the account's teams with is_member for the caller", async () => {
    const { account, agent } = await createWorld();
    const mine = await createTeam(account.id, { description: "Tier 1" });
    const other = await createTeam(account.id, { allowAutoAssign: false });
    await addTeamMember(mine.id, agent.id);
    const elsewhere = await createWorld();
    await createTeam(elsewhere.account.id);

    const res = await api(teams(account.id), { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: mine.id,
        name: mine.name,
        description: "Tier 1",
        allow_auto_assign: true,
        account_id: account.id,
        is_member: true,
      },
      {
        id: other.id,
        name: other.name,
        description: null,
        allow_auto_assign: false,
        account_id: account.id,
        is_member: false,
      },
    ]);
  });

  it("answers an empty array when the account has no teams", async () => {
    const { account, admin } = await createWorld();
    const res = await api(teams(account.id), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe("GET /api/v1/accounts/{account_id}/teams/{team_id}", () => {
  it("returns the team record to an agent", async () => {
    const { account, agent } = await createWorld();
    const team = await createTeam(account.id, { description: "Billing questions" });
    await addTeamMember(team.id, agent.id);
    const res = await api(`${teams(account.id)}/${team.id}`, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: team.id,
      name: team.name,
      description: "Billing questions",
      allow_auto_assign: true,
      account_id: account.id,
      is_member: true,
    });
  });

  it("answers 404 for unknown, malformed and other accounts' team ids", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const foreign = await createTeam(other.account.id);
    for (const id of [String(foreign.id), "999999999", "abc", "1.5", "-1"]) {
      expectError(
        await api(`${teams(account.id)}/${id}`, { token: admin.token }),
        404,
        "not_found",
      );
    }
  });
});

describe("POST /api/v1/accounts/{account_id}/teams", () => {
  it("creates a team with the name trimmed and lower-cased, and Chatwoot's defaults", async () => {
    const { account, admin } = await createWorld();
    const name = unique("Sales Team");
    const res = await api(teams(account.id), {
      method: "POST",
      token: admin.token,
      body: { name: `  ${name} `, ignored: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: name.toLowerCase(),
      description: null,
      allow_auto_assign: true,
      account_id: account.id,
      is_member: false,
    });
    const shown = await api(`${teams(account.id)}/${res.body.id}`, { token: admin.token });
    expect(shown.body.name).toBe(name.toLowerCase());
  });

  it("accepts the Chatwoot-wrapped body {team: {...}}", async () => {
    const { account, admin } = await createWorld();
    const name = unique("support");
    const res = await api(teams(account.id), {
      method: "POST",
      token: admin.token,
      body: { team: { name, description: "Front line", allow_auto_assign: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name, description: "Front line", allow_auto_assign: false });
  });

  it("answers 422 listing each invalid field, and creates nothing", async () => {
    const { account, admin } = await createWorld();
    const res = await api(teams(account.id), {
      method: "POST",
      token: admin.token,
      body: { name: "   ", description: 5, allow_auto_assign: "yes" },
    });
    const err = expectError(res, 422, "validation_failed");
    expect(err.details.map((d) => d.path).sort()).toEqual([
      "allow_auto_assign",
      "description",
      "name",
    ]);
    expect((await api(teams(account.id), { token: admin.token })).body).toEqual([]);
  });

  it("answers 422 when name is missing", async () => {
    const { account, admin } = await createWorld();
    const err = expectError(
      await api(teams(account.id), { method: "POST", token: admin.token, body: {} }),
      422,
    );
    expect(err.details.map((d) => d.path)).toEqual(["name"]);
  });

  it("answers 422 'Name has already been taken' for a duplicate in any letter case", async () => {
    const { account, admin } = await createWorld();
    const team = await createTeam(account.id);
    const res = await api(teams(account.id), {
      method: "POST",
      token: admin.token,
      body: { name: team.name.toUpperCase() },
    });
    const err = expectError(res, 422, "validation_failed");
    expect(err.error).toBe("Name has already been taken");
    expect(err.details).toEqual([{ path: "name", message: "has already been taken" }]);
    expect((await api(teams(account.id), { token: admin.token })).body).toHaveLength(1);
  });

  it("allows the same name in another account", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const team = await createTeam(other.account.id);
    const res = await api(teams(account.id), {
      method: "POST",
      token: admin.token,
      body: { name: team.name },
    });
    expect(res.status).toBe(200);
    expect(res.body.account_id).toBe(account.id);
  });
});

describe("PATCH /api/v1/accounts/{account_id}/teams/{team_id}", () => {
  it("updates only the fields sent", async () => {
    const { account, admin } = await createWorld();
    const team = await createTeam(account.id, { description: "old" });
    const res = await api(`${teams(account.id)}/${team.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { team: { allow_auto_assign: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: team.id,
      name: team.name,
      description: "old",
      allow_auto_assign: false,
      account_id: account.id,
      is_member: false,
    });
  });

  it("renames (lower-cased), clears the description and reports is_member for the caller", async () => {
    const { account, admin } = await createWorld();
    const team = await createTeam(account.id, { description: "old" });
    await addTeamMember(team.id, admin.id);
    const name = unique("Escalations");
    const res = await api(`${teams(account.id)}/${team.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { name, description: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: name.toLowerCase(),
      description: null,
      is_member: true,
    });
  });

  it("keeps its own name without a uniqueness error", async () => {
    const { account, admin } = await createWorld();
    const team = await createTeam(account.id);
    const res = await api(`${teams(account.id)}/${team.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { name: team.name },
    });
    expect(res.status).toBe(200);
  });

  it("answers 422 for another team's name, and changes nothing", async () => {
    const { account, admin } = await createWorld();
    const first = await createTeam(account.id);
    const second = await createTeam(account.id);
    const res = await api(`${teams(account.id)}/${second.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { name: first.name, description: "changed" },
    });
    expect(expectError(res, 422).error).toBe("Name has already been taken");
    const after = await api(`${teams(account.id)}/${second.id}`, { token: admin.token });
    expect(after.body).toMatchObject({ name: second.name, description: null });
  });

  it("answers 422 for wrong types, and changes nothing", async () => {
    const { account, admin } = await createWorld();
    const team = await createTeam(account.id);
    const res = await api(`${teams(account.id)}/${team.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { name: "", allow_auto_assign: 1 },
    });
    expect(
      expectError(res, 422)
        .details.map((d) => d.path)
        .sort(),
    ).toEqual(["allow_auto_assign", "name"]);
    expect((await api(`${teams(account.id)}/${team.id}`, { token: admin.token })).body.name).toBe(
      team.name,
    );
  });

  it("answers 404 for another account's team, and leaves it alone", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const foreign = await createTeam(other.account.id);
    expectError(
      await api(`${teams(account.id)}/${foreign.id}`, {
        method: "PATCH",
        token: admin.token,
        body: { name: "stolen" },
      }),
      404,
    );
    expectError(
      await api(`${teams(account.id)}/abc`, {
        method: "PATCH",
        token: admin.token,
        body: { name: "x" },
      }),
      404,
    );
    const after = await api(`${teams(other.account.id)}/${foreign.id}`, {
      token: other.admin.token,
    });
    expect(after.body.name).toBe(foreign.name);
  });
});

describe("DELETE /api/v1/accounts/{account_id}/teams/{team_id}", () => {
  it("deletes the team and its memberships and answers {}", async () => {
    const { account, admin, agent } = await createWorld();
    const team = await createTeam(account.id);
    await addTeamMember(team.id, agent.id);
    const res = await api(`${teams(account.id)}/${team.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expectError(await api(`${teams(account.id)}/${team.id}`, { token: admin.token }), 404);
    expectError(
      await api(`${teams(account.id)}/${team.id}/team_members`, { token: admin.token }),
      404,
    );
    // The name is free again.
    const again = await api(teams(account.id), {
      method: "POST",
      token: admin.token,
      body: { name: team.name },
    });
    expect(again.status).toBe(200);
  });

  it("answers 404 for unknown, malformed and other accounts' teams", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const foreign = await createTeam(other.account.id);
    for (const id of [String(foreign.id), "999999999", "x1"]) {
      expectError(
        await api(`${teams(account.id)}/${id}`, { method: "DELETE", token: admin.token }),
        404,
      );
    }
    expect(
      (await api(`${teams(other.account.id)}/${foreign.id}`, { token: other.admin.token })).status,
    ).toBe(200);
  });
});

describeAuthMatrix("GET teams", { method: "GET", path: (w) => teams(w.account.id) });

describeAuthMatrix("GET team", {
  method: "GET",
  path: async (w) => `${teams(w.account.id)}/${(await createTeam(w.account.id)).id}`,
});

describeAuthMatrix("POST teams", {
  method: "POST",
  path: (w) => teams(w.account.id),
  body: { name: "matrix" },
  adminOnly: true,
});

describeAuthMatrix("PATCH team", {
  method: "PATCH",
  path: async (w) => `${teams(w.account.id)}/${(await createTeam(w.account.id)).id}`,
  body: { description: "matrix" },
  adminOnly: true,
});

describeAuthMatrix("DELETE team", {
  method: "DELETE",
  path: async (w) => `${teams(w.account.id)}/${(await createTeam(w.account.id)).id}`,
  adminOnly: true,
});
