import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import {
  addInboxMember,
  createAccount,
  createInbox,
  createPlatformApp,
  createTeam,
  createUser,
  db,
} from "../../support/factories";
import {
  createManagedAccount,
  createManagedUser,
  inboxMembershipsOf,
  membershipsOf,
} from "../../support/factories-users";
import { api, expectError } from "../../support/http";

const pathOf = (accountId: number) => `/platform/api/v1/accounts/${accountId}/account_users`;

const ACCOUNT_USER_FIELDS = [
  "account_id",
  "created_at",
  "id",
  "inviter_id",
  "role",
  "updated_at",
  "user_id",
];

function expectAccountUser(body: Record<string, unknown>) {
  expect(Object.keys(body).sort()).toEqual(ACCOUNT_USER_FIELDS);
  expect(body).toMatchObject({
    id: expect.any(Number),
    account_id: expect.any(Number),
    user_id: expect.any(Number),
    role: expect.stringMatching(/^(agent|administrator)$/),
    created_at: expect.any(Number),
    updated_at: expect.any(Number),
  });
  expect(body.inviter_id === null || Number.isInteger(body.inviter_id)).toBe(true);
}

async function managedPair() {
  const app = await createPlatformApp();
  const account = await createManagedAccount(app.id);
  const user = await createManagedUser(app.id);
  return { app, account, user };
}

describe("POST /platform/api/v1/accounts/{account_id}/account_users", () => {
  it("adds the user with the role, and the user's token then works in the account", async () => {
    const { app, account, user } = await managedPair();
    expectError(await api(`/api/v1/accounts/${account.id}`, { token: user.token }), 404);
    const res = await api(pathOf(account.id), {
      token: app.token,
      body: { user_id: user.id, role: "administrator" },
    });
    expect(res.status).toBe(200);
    expectAccountUser(res.body);
    expect(res.body).toMatchObject({
      account_id: account.id,
      user_id: user.id,
      role: "administrator",
      inviter_id: null,
    });
    const asUser = await api(`/api/v1/accounts/${account.id}`, { token: user.token });
    expect(asUser.status).toBe(200);
  });

  it("is an upsert: posting again changes the role of the same membership", async () => {
    const { app, account, user } = await managedPair();
    const first = await api(pathOf(account.id), {
      token: app.token,
      body: { user_id: user.id, role: "agent" },
    });
    const second = await api(pathOf(account.id), {
      token: app.token,
      body: { user_id: user.id, role: "administrator" },
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, role: "administrator" });
    expect(await membershipsOf(user.id)).toHaveLength(1);
  });

  it("answers 422 listing invalid fields, and adds nobody", async () => {
    const { app, account, user } = await managedPair();
    const err = expectError(
      await api(pathOf(account.id), {
        token: app.token,
        body: { user_id: String(user.id), role: "owner" },
      }),
      422,
      "validation_failed",
    );
    expect(err.details.map((d) => d.path).sort()).toEqual(["role", "user_id"]);
    expectError(await api(pathOf(account.id), { token: app.token, body: { role: "agent" } }), 422);
    expect(await membershipsOf(user.id)).toEqual([]);
  });

  it("answers 404 unless the app manages both the account and the user", async () => {
    const { app, account, user } = await managedPair();
    const foreignAccount = await createAccount();
    const foreignUser = await createUser();
    const post = (accountId: number, userId: number) =>
      api(pathOf(accountId), { token: app.token, body: { user_id: userId, role: "agent" } });
    expectError(await post(foreignAccount.id, user.id), 404, "not_found");
    expectError(await post(account.id, foreignUser.id), 404, "not_found");
    expectError(await post(account.id, 999999999), 404);
    expectError(await post(999999999, user.id), 404);
    expect(await membershipsOf(user.id)).toEqual([]);
    expect(await membershipsOf(foreignUser.id)).toEqual([]);
  });
});

describe("GET /platform/api/v1/accounts/{account_id}/account_users", () => {
  it("lists every member of the account as a bare array", async () => {
    const { app, account, user } = await managedPair();
    const other = await createManagedUser(app.id);
    await api(pathOf(account.id), {
      token: app.token,
      body: { user_id: user.id, role: "administrator" },
    });
    await api(pathOf(account.id), { token: app.token, body: { user_id: other.id, role: "agent" } });
    const res = await api(pathOf(account.id), { token: app.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    for (const row of res.body) {
      expectAccountUser(row);
    }
    expect(res.body.map((r: { user_id: number; role: string }) => [r.user_id, r.role])).toEqual([
      [user.id, "administrator"],
      [other.id, "agent"],
    ]);
  });

  it("answers 404 for another app's account, an unknown and a malformed id", async () => {
    const { account } = await managedPair();
    const stranger = await createPlatformApp();
    expectError(await api(pathOf(account.id), { token: stranger.token }), 404);
    expectError(await api(pathOf(999999999), { token: stranger.token }), 404);
    expectError(
      await api("/platform/api/v1/accounts/x1/account_users", { token: stranger.token }),
      404,
    );
    expectError(await api(pathOf(account.id)), 401, "unauthorized");
  });
});

describe("DELETE /platform/api/v1/accounts/{account_id}/account_users", () => {
  it("removes the membership and the user's inboxes and teams in that account only", async () => {
    const { app, account, user } = await managedPair();
    const elsewhere = await createManagedAccount(app.id);
    await api(pathOf(account.id), { token: app.token, body: { user_id: user.id, role: "agent" } });
    await api(pathOf(elsewhere.id), {
      token: app.token,
      body: { user_id: user.id, role: "agent" },
    });
    const inbox = await createInbox(account.id);
    const keptInbox = await createInbox(elsewhere.id);
    await addInboxMember(inbox.id, user.id);
    await addInboxMember(keptInbox.id, user.id);
    const team = await createTeam(account.id);
    await db().insert(t.teamMembers).values({ teamId: team.id, userId: user.id });

    const res = await api(pathOf(account.id), {
      method: "DELETE",
      token: app.token,
      body: { user_id: user.id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await membershipsOf(user.id)).map((m) => m.accountId)).toEqual([elsewhere.id]);
    expect((await inboxMembershipsOf(user.id)).map((m) => m.inboxId)).toEqual([keptInbox.id]);
    expect(await db().select().from(t.teamMembers).all()).not.toContainEqual(
      expect.objectContaining({ teamId: team.id, userId: user.id }),
    );
    expectError(await api(`/api/v1/accounts/${account.id}`, { token: user.token }), 404);
  });

  it("answers 404 for a user who is not a member, or not the app's", async () => {
    const { app, account, user } = await managedPair();
    const del = (userId: number, token = app.token) =>
      api(pathOf(account.id), { method: "DELETE", token, body: { user_id: userId } });
    expectError(await del(user.id), 404);
    const foreign = await createUser();
    expectError(await del(foreign.id), 404);
    await api(pathOf(account.id), { token: app.token, body: { user_id: user.id, role: "agent" } });
    const stranger = await createPlatformApp();
    expectError(await del(user.id, stranger.token), 404);
    expect(await membershipsOf(user.id)).toHaveLength(1);
  });

  it("answers 422 without a user_id", async () => {
    const { app, account } = await managedPair();
    const err = expectError(
      await api(pathOf(account.id), { method: "DELETE", token: app.token, body: {} }),
      422,
    );
    expect(err.details.map((d) => d.path)).toEqual(["user_id"]);
  });
});
