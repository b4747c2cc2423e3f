import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import {
  addInboxMember,
  addToAccount,
  createAdmin,
  createTeam,
  createUser,
  createWorld,
  unique,
} from "../../support/factories";
import {
  findMembershipRow,
  findUserRow,
  findUserToken,
  inboxMemberIds,
  joinTeam,
  teamMemberIds,
} from "../../support/factories-inboxes";
import { api, expectError } from "../../support/http";
import { recordMail } from "../../support/mail";

const agents = (accountId: number) => `/api/v1/accounts/${accountId}/agents`;

const agentRecord = (
  user: { id: number; email: string; name: string },
  accountId: number,
  role: "agent" | "administrator",
) => ({
  id: user.id,
  account_id: accountId,
  // Chose online (the default), auto_offline, no socket open: offline until one opens.
  availability_status: "offline",
  auto_offline: true,
  confirmed: true,
  email: user.email,
  available_name: user.name,
  name: user.name,
  role,
  thumbnail: "",
  custom_role_id: null,
});

describe("GET /api/v1/accounts/{account_id}/agents", () => {
  it("returns a bare array of the account's members in name order, to agents too", async () => {
    const { account, agent } = await createWorld();
    const admin = await createUser({ name: "Aaron Admin" });
    await addToAccount(account.id, admin.id, "administrator");
    const zed = await createUser({
      name: "zed agent",
      displayName: "Zed",
      avatarUrl: "https://x.test/z.png",
    });
    await addToAccount(account.id, zed.id, "agent");
    await createWorld(); // another account's members stay out

    const res = await api(agents(account.id), { token: agent.token });
    expect(res.status).toBe(200);
    const ids = res.body.map((a: { id: number }) => a.id);
    expect(ids).toHaveLength(4);
    expect(ids[0]).toBe(admin.id);
    expect(ids[3]).toBe(zed.id);
    expect(res.body[0]).toEqual(agentRecord(admin, account.id, "administrator"));
    expect(res.body.find((a: { id: number }) => a.id === agent.id)).toEqual(
      agentRecord(agent, account.id, "agent"),
    );
    expect(res.body[3]).toEqual({
      ...agentRecord(zed, account.id, "agent"),
      available_name: "Zed",
      thumbnail: "https://x.test/z.png",
    });
  });
});

describe("POST /api/v1/accounts/{account_id}/agents", () => {
  it("creates a user with an access token and adds them to the account", async () => {
    const { account, admin } = await createWorld();
    const email = `${unique("new")}@Example.COM`;
    const res = await api(agents(account.id), {
      token: admin.token,
      body: {
        name: "New Agent",
        email: ` ${email} `,
        availability_status: "busy",
        auto_offline: false,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...agentRecord(
        { id: res.body.id, email: email.toLowerCase(), name: "New Agent" },
        account.id,
        "agent",
      ),
      availability_status: "busy",
      auto_offline: false,
      // Until they choose a password through the mailed link.
      confirmed: false,
    });
    const user = await findUserRow(res.body.id);
    expect(user?.pubsubToken).toMatch(/^\w{24}$/);
    const token = await findUserToken(res.body.id);
    expect(token?.token).toMatch(/^\w{24}$/);
    expect((await findMembershipRow(account.id, res.body.id))?.inviterId).toBe(admin.id);
    // The new agent's token works in the account.
    const own = await api(`/api/v1/accounts/${account.id}`, { token: token?.token });
    expect(own.status).toBe(200);
  });

  it("invites an existing user (matched case-insensitively), revealing nothing of them", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const mail = recordMail();
    try {
      const res = await api(agents(account.id), {
        token: admin.token,
        body: {
          agent: {
            name: "Typed Name",
            email: other.agent.email.toUpperCase(),
            role: "administrator",
          },
        },
      });
      expect(res.status).toBe(200);
      // Only what the inviter sent: not the user's real name, avatar or confirmation.
      expect(res.body).toEqual({
        ...agentRecord(
          { id: other.agent.id, email: other.agent.email, name: "Typed Name" },
          account.id,
          "administrator",
        ),
        confirmed: false,
      });
      expect(JSON.stringify(res.body)).not.toContain(other.agent.name);
      // Nothing joined, nothing of the user changed, until the user accepts.
      expect(await findMembershipRow(account.id, other.agent.id)).toBeUndefined();
      expect((await findUserRow(other.agent.id))?.name).toBe(other.agent.name);
      const list = await api(agents(account.id), { token: admin.token });
      expect(list.body.map((a: { id: number }) => a.id)).not.toContain(other.agent.id);
      expect(mail.sent.at(-1)?.to).toEqual([other.agent.email]);
      expect(mail.linkTo(other.agent.email)).toMatch(
        /^\/app\/auth\/invitation\?invitation_token=\w{43}$/,
      );
      // Still an agent in the first account.
      expect((await findMembershipRow(other.account.id, other.agent.id))?.role).toBe("agent");
    } finally {
      mail.stop();
    }
  });

  it("accepts Chatwoot's `available` as online", async () => {
    const { account, admin } = await createWorld();
    const res = await api(agents(account.id), {
      token: admin.token,
      // auto_offline off: the chosen availability is the status, with or without a socket.
      body: {
        name: "A",
        email: `${unique("a")}@example.com`,
        availability: "available",
        auto_offline: false,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.availability_status).toBe("online");
  });

  it("answers 422 when the user is already a member, changing nothing", async () => {
    const { account, admin, agent } = await createWorld();
    const err = expectError(
      await api(agents(account.id), {
        token: admin.token,
        body: { name: "X", email: agent.email, role: "administrator" },
      }),
      422,
      "validation_failed",
    );
    expect(err.details).toEqual([
      { path: "email", message: "is already a member of this account" },
    ]);
    expect((await findMembershipRow(account.id, agent.id))?.role).toBe("agent");
  });

  it("answers 422 listing every invalid field", async () => {
    const { account, admin } = await createWorld();
    const res = await api(agents(account.id), {
      token: admin.token,
      body: {
        name: "",
        email: "not-an-email",
        role: "owner",
        availability_status: "away",
        auto_offline: "yes",
      },
    });
    const err = expectError(res, 422, "validation_failed");
    expect(err.details.map((d) => d.path).sort()).toEqual([
      "auto_offline",
      "availability_status",
      "email",
      "name",
      "role",
    ]);
    const missing = expectError(
      await api(agents(account.id), { token: admin.token, body: {} }),
      422,
    );
    expect(missing.details.map((d) => d.path).sort()).toEqual(["email", "name"]);
    expect((await api(agents(account.id), { token: admin.token })).body).toHaveLength(2);
  });
});

describe("PATCH /api/v1/accounts/{account_id}/agents/{id}", () => {
  it("updates role, availability and auto_offline", async () => {
    const { account, admin, agent } = await createWorld();
    const res = await api(`${agents(account.id)}/${agent.id}`, {
      method: "PATCH",
      token: admin.token,
      body: {
        name: agent.name, // a client sending the whole record back
        role: "administrator",
        availability_status: "offline",
        auto_offline: false,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...agentRecord(agent, account.id, "administrator"),
      availability_status: "offline",
      auto_offline: false,
    });
  });

  it("refuses to rename the user: the name is the user's own, in every account", async () => {
    const { account, admin, agent } = await createWorld();
    const err = expectError(
      await api(`${agents(account.id)}/${agent.id}`, {
        method: "PATCH",
        token: admin.token,
        body: { name: "Renamed", role: "administrator" },
      }),
      422,
      "validation_failed",
    );
    expect(err.details).toEqual([
      { path: "name", message: "is the user's own: they change it with PUT /api/v1/profile" },
    ]);
    expect((await findUserRow(agent.id))?.name).toBe(agent.name);
    expect((await findMembershipRow(account.id, agent.id))?.role).toBe("agent");
  });

  it("keeps omitted fields", async () => {
    const { account, admin, agent } = await createWorld();
    const res = await api(`${agents(account.id)}/${agent.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { availability_status: "busy" },
    });
    expect(res.body).toEqual({
      ...agentRecord(agent, account.id, "agent"),
      availability_status: "busy",
    });
  });

  it("refuses to demote the last administrator, but demotes one of two", async () => {
    const { account, admin } = await createWorld();
    const path = `${agents(account.id)}/${admin.id}`;
    const err = expectError(
      await api(path, {
        method: "PATCH",
        token: admin.token,
        body: { role: "agent", name: admin.name },
      }),
      422,
    );
    expect(err.details[0]?.path).toBe("role");
    expect((await findMembershipRow(account.id, admin.id))?.role).toBe("administrator");
    expect((await findUserRow(admin.id))?.name).toBe(admin.name);

    await createAdmin(account.id);
    const ok = await api(path, { method: "PATCH", token: admin.token, body: { role: "agent" } });
    expect(ok.status).toBe(200);
    expect(ok.body.role).toBe("agent");
  });

  it("answers 422 to invalid values", async () => {
    const { account, admin, agent } = await createWorld();
    const err = expectError(
      await api(`${agents(account.id)}/${agent.id}`, {
        method: "PATCH",
        token: admin.token,
        body: { role: "root", name: 5 },
      }),
      422,
    );
    expect(err.details.map((d) => d.path).sort()).toEqual(["name", "role"]);
  });

  it("answers 404 for unknown, other-account and malformed ids", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const patch = (id: string | number) =>
      api(`${agents(account.id)}/${id}`, {
        method: "PATCH",
        token: admin.token,
        body: { name: "x" },
      });
    expectError(await patch(999_999_999), 404, "not_found");
    expectError(await patch(other.agent.id), 404, "not_found");
    expectError(await patch("abc"), 404, "not_found");
    expect((await findUserRow(other.agent.id))?.name).toBe(other.agent.name);
  });
});

describe("DELETE /api/v1/accounts/{account_id}/agents/{id}", () => {
  it("removes the membership and the agent's inboxes and teams in this account only", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    const team = await createTeam(account.id);
    await addInboxMember(inbox.id, agent.id);
    await joinTeam(team.id, agent.id);
    const other = await createWorld();
    await addToAccount(other.account.id, agent.id, "agent");
    await addInboxMember(other.inbox.id, agent.id);

    const res = await api(`${agents(account.id)}/${agent.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await findMembershipRow(account.id, agent.id)).toBeUndefined();
    expect(await inboxMemberIds(inbox.id)).toEqual([]);
    expect(await teamMemberIds(team.id)).toEqual([]);
    expect(await inboxMemberIds(other.inbox.id)).toEqual([agent.id]);
    expect(await findUserRow(agent.id)).toBeDefined();
    expectError(await api(`/api/v1/accounts/${account.id}`, { token: agent.token }), 404);
    expect((await api(`/api/v1/accounts/${other.account.id}`, { token: agent.token })).status).toBe(
      200,
    );
  });

  it("refuses to remove the last administrator", async () => {
    const { account, admin, inbox } = await createWorld();
    await addInboxMember(inbox.id, admin.id);
    const err = expectError(
      await api(`${agents(account.id)}/${admin.id}`, { method: "DELETE", token: admin.token }),
      422,
    );
    expect(err.details[0]?.path).toBe("id");
    expect(await findMembershipRow(account.id, admin.id)).toBeDefined();
    expect(await inboxMemberIds(inbox.id)).toEqual([admin.id]);
  });

  it("lets an administrator leave when another administrator remains", async () => {
    const { account, admin } = await createWorld();
    await createAdmin(account.id);
    const res = await api(`${agents(account.id)}/${admin.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(await findMembershipRow(account.id, admin.id)).toBeUndefined();
  });

  it("answers 404 for unknown, other-account and malformed ids", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const del = (id: string | number) =>
      api(`${agents(account.id)}/${id}`, { method: "DELETE", token: admin.token });
    expectError(await del(999_999_999), 404);
    expectError(await del(other.agent.id), 404);
    expectError(await del("1x"), 404);
    expect(await findMembershipRow(other.account.id, other.agent.id)).toBeDefined();
  });
});

describeAuthMatrix("GET agents", { method: "GET", path: (w) => agents(w.account.id) });
describeAuthMatrix("POST agents", {
  method: "POST",
  path: (w) => agents(w.account.id),
  body: { name: "M", email: "matrix@example.com" },
  adminOnly: true,
});
describeAuthMatrix("PATCH agent", {
  method: "PATCH",
  path: (w) => `${agents(w.account.id)}/${w.agent.id}`,
  body: { availability_status: "busy" },
  adminOnly: true,
});
describeAuthMatrix("DELETE agent", {
  method: "DELETE",
  path: (w) => `${agents(w.account.id)}/${w.agent.id}`,
  adminOnly: true,
});
