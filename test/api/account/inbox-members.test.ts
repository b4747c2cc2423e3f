import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../../support/auth-matrix";
import {
  addInboxMember,
  createAdmin,
  createAgent,
  createInbox,
  createWorld,
} from "../../support/factories";
import { inboxMemberIds } from "../../support/factories-inboxes";
import { api, expectError } from "../../support/http";

const members = (accountId: number) => `/api/v1/accounts/${accountId}/inbox_members`;
const ids = (body: { payload: { id: number }[] }) =>
  body.payload.map((a) => a.id).sort((a, b) => a - b);
const sorted = (...values: number[]) => [...values].sort((a, b) => a - b);

describe("GET /api/v1/accounts/{account_id}/inbox_members/{inbox_id}", () => {
  it("returns the inbox's agents as agent records", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    await addInboxMember(inbox.id, agent.id);
    await createInbox(account.id).then((other) => addInboxMember(other.id, admin.id));
    const res = await api(`${members(account.id)}/${inbox.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      payload: [
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
      ],
    });
  });

  it("answers 404 for unknown, other-account and malformed inbox ids", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    expectError(await api(`${members(account.id)}/999999999`, { token: admin.token }), 404);
    expectError(await api(`${members(account.id)}/${other.inbox.id}`, { token: admin.token }), 404);
    expectError(await api(`${members(account.id)}/nope`, { token: admin.token }), 404);
  });
});

describe("POST /api/v1/accounts/{account_id}/inbox_members", () => {
  it("adds the listed users and keeps the current members", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    const second = await createAgent(account.id);
    await addInboxMember(inbox.id, second.id);
    const res = await api(members(account.id), {
      token: admin.token,
      body: { inbox_id: inbox.id, user_ids: [agent.id, admin.id, agent.id] },
    });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(sorted(agent.id, admin.id, second.id));
    expect(await inboxMemberIds(inbox.id)).toEqual(sorted(agent.id, admin.id, second.id));
    // The agent now sees the inbox.
    const list = await api(`/api/v1/accounts/${account.id}/inboxes`, { token: agent.token });
    expect(list.body.payload.map((i: { id: number }) => i.id)).toEqual([inbox.id]);
  });

  it("accepts numeric strings for inbox_id and user_ids", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    const res = await api(members(account.id), {
      token: admin.token,
      body: { inbox_id: String(inbox.id), user_ids: [String(agent.id)] },
    });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([agent.id]);
  });
});

describe("PATCH /api/v1/accounts/{account_id}/inbox_members (E8)", () => {
  it("replaces the membership with the listed users and returns the full list", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    const leaving = await createAgent(account.id);
    const staying = await createAgent(account.id);
    await addInboxMember(inbox.id, leaving.id);
    await addInboxMember(inbox.id, staying.id);
    const res = await api(members(account.id), {
      method: "PATCH",
      token: admin.token,
      body: { inbox_id: String(inbox.id), user_ids: [staying.id, agent.id] },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["payload"]);
    expect(ids(res.body)).toEqual(sorted(staying.id, agent.id));
    for (const record of res.body.payload) {
      expect(Object.keys(record).sort()).toEqual([
        "account_id",
        "auto_offline",
        "availability_status",
        "available_name",
        "confirmed",
        "custom_role_id",
        "email",
        "id",
        "name",
        "role",
        "thumbnail",
      ]);
    }
    expect(await inboxMemberIds(inbox.id)).toEqual(sorted(staying.id, agent.id));
    expectError(
      await api(`/api/v1/accounts/${account.id}/inboxes/${inbox.id}`, { token: leaving.token }),
      404,
    );
  });

  it("handles more users than D1 binds in one statement", async () => {
    const { account, admin, inbox } = await createWorld();
    const many = await Promise.all(Array.from({ length: 95 }, () => createAgent(account.id)));
    const all = many.map((u) => u.id);
    const res = await api(members(account.id), {
      method: "PATCH",
      token: admin.token,
      body: { inbox_id: inbox.id, user_ids: all },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toHaveLength(95);
    const fewer = await api(members(account.id), {
      method: "PATCH",
      token: admin.token,
      body: { inbox_id: inbox.id, user_ids: all.slice(0, 3) },
    });
    expect(ids(fewer.body)).toEqual(sorted(...all.slice(0, 3)));
  });

  it("empties the inbox with an empty list", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    await addInboxMember(inbox.id, agent.id);
    const res = await api(members(account.id), {
      method: "PATCH",
      token: admin.token,
      body: { inbox_id: inbox.id, user_ids: [] },
    });
    expect(res.body).toEqual({ payload: [] });
    expect(await inboxMemberIds(inbox.id)).toEqual([]);
  });

  it("answers 422 naming users of other accounts, and changes nothing", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    const other = await createWorld();
    const colleague = await createAdmin(account.id);
    await addInboxMember(inbox.id, colleague.id);
    const res = await api(members(account.id), {
      method: "PATCH",
      token: admin.token,
      body: { inbox_id: inbox.id, user_ids: [agent.id, other.agent.id, 999_999_999] },
    });
    const err = expectError(res, 422, "validation_failed");
    expect(err.details).toEqual([
      { path: "user_ids", message: `${other.agent.id}, 999999999 are not users of this account` },
    ]);
    expect(await inboxMemberIds(inbox.id)).toEqual([colleague.id]);
  });
});

describe("DELETE /api/v1/accounts/{account_id}/inbox_members", () => {
  it("removes the listed users only", async () => {
    const { account, admin, agent, inbox } = await createWorld();
    const second = await createAgent(account.id);
    await addInboxMember(inbox.id, agent.id);
    await addInboxMember(inbox.id, second.id);
    const res = await api(members(account.id), {
      method: "DELETE",
      token: admin.token,
      body: { inbox_id: inbox.id, user_ids: [agent.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const after = await api(`${members(account.id)}/${inbox.id}`, { token: admin.token });
    expect(ids(after.body)).toEqual([second.id]);
  });
});

describe("inbox member changes: shared validation", () => {
  for (const method of ["POST", "PATCH", "DELETE"]) {
    it(`${method} answers 404 for an unknown or another account's inbox`, async () => {
      const { account, admin, agent } = await createWorld();
      const other = await createWorld();
      await addInboxMember(other.inbox.id, other.agent.id);
      for (const inbox_id of [other.inbox.id, 999_999_999]) {
        expectError(
          await api(members(account.id), {
            method,
            token: admin.token,
            body: { inbox_id, user_ids: [agent.id] },
          }),
          404,
        );
      }
      expect(await inboxMemberIds(other.inbox.id)).toEqual([other.agent.id]);
    });

    it(`${method} answers 422 to malformed bodies`, async () => {
      const { account, admin, inbox } = await createWorld();
      const call = (body: unknown) =>
        api(members(account.id), { method, token: admin.token, body });
      const missing = expectError(await call({}), 422);
      expect(missing.details.map((d) => d.path).sort()).toEqual(["inbox_id", "user_ids"]);
      const wrong = expectError(await call({ inbox_id: "abc", user_ids: [1.5, "x", null] }), 422);
      expect(wrong.details.map((d) => d.path).sort()).toEqual([
        "inbox_id",
        "user_ids.0",
        "user_ids.1",
        "user_ids.2",
      ]);
      const notArray = expectError(await call({ inbox_id: inbox.id, user_ids: 3 }), 422);
      expect(notArray.details.map((d) => d.path)).toEqual(["user_ids"]);
    });
  }
});

describeAuthMatrix("GET inbox_members", {
  method: "GET",
  path: (w) => `${members(w.account.id)}/${w.inbox.id}`,
  adminOnly: true,
});
describeAuthMatrix("POST inbox_members", {
  method: "POST",
  path: (w) => members(w.account.id),
  body: { inbox_id: 1, user_ids: [] },
  adminOnly: true,
});
describeAuthMatrix("PATCH inbox_members", {
  method: "PATCH",
  path: (w) => members(w.account.id),
  body: { inbox_id: "1", user_ids: [] },
  adminOnly: true,
});
describeAuthMatrix("DELETE inbox_members", {
  method: "DELETE",
  path: (w) => members(w.account.id),
  body: { inbox_id: 1, user_ids: [] },
  adminOnly: true,
});
