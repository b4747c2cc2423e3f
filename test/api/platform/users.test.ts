import { describe, expect, it } from "vitest";
import { verifyPassword } from "../../../worker/modules/users/password";
import { addToAccount, createPlatformApp, createWorld, unique } from "../../support/factories";
import {
  createManagedAccount,
  createManagedUser,
  grantsOf,
  membershipsOf,
  tokenRowOf,
  userRow,
} from "../../support/factories-users";
import { api, expectError } from "../../support/http";

const USER_FIELDS = [
  "access_token",
  "account_id",
  "accounts",
  "available_name",
  "avatar_url",
  "confirmed",
  "display_name",
  "email",
  "hmac_identifier",
  "id",
  "inviter_id",
  "message_signature",
  "name",
  "provider",
  "pubsub_token",
  "role",
  "type",
  "ui_settings",
  "uid",
];

const ACCOUNT_FIELDS = [
  "active_at",
  "auto_offline",
  "availability",
  "availability_status",
  "custom_role",
  "custom_role_id",
  "id",
  "name",
  "permissions",
  "role",
  "status",
];

/** Every field of the spec's user record, with its type. */
function expectUserRecord(body: Record<string, unknown>) {
  expect(
    Object.keys(body)
      .filter((k) => k !== "custom_attributes")
      .sort(),
  ).toEqual(USER_FIELDS);
  expect(body).toMatchObject({
    id: expect.any(Number),
    access_token: expect.any(String),
    available_name: expect.any(String),
    avatar_url: expect.any(String),
    confirmed: expect.any(Boolean),
    email: expect.any(String),
    hmac_identifier: expect.stringMatching(/^[0-9a-f]{64}$/),
    name: expect.any(String),
    provider: "email",
    pubsub_token: expect.any(String),
    ui_settings: expect.any(Object),
    uid: body.email,
    type: "User",
    accounts: expect.any(Array),
  });
  for (const key of ["display_name", "message_signature"]) {
    expect(body[key] === null || typeof body[key] === "string").toBe(true);
  }
  for (const key of ["account_id", "inviter_id"]) {
    expect(body[key] === null || Number.isInteger(body[key])).toBe(true);
  }
  expect([null, "agent", "administrator"]).toContain(body.role);
  for (const account of body.accounts as Record<string, unknown>[]) {
    expect(Object.keys(account).sort()).toEqual(ACCOUNT_FIELDS);
    expect(account).toMatchObject({
      id: expect.any(Number),
      name: expect.any(String),
      status: expect.any(String),
      permissions: [account.role],
      availability: expect.any(String),
      availability_status: expect.any(String),
      auto_offline: expect.any(Boolean),
      custom_role_id: null,
      custom_role: null,
    });
  }
}

const createUser = (token: string, body: Record<string, unknown>) =>
  api("/platform/api/v1/users", { token, body });

const email = () => `${unique("person")}@example.com`.toLowerCase();

describe("POST /platform/api/v1/users", () => {
  it("creates a user with an access token, a grant and every field of the user record", async () => {
    const app = await createPlatformApp();
    const address = email();
    const res = await createUser(app.token, { name: "Daniel", email: address, ignored: true });
    expect(res.status).toBe(200);
    expectUserRecord(res.body);
    expect(res.body).toMatchObject({
      name: "Daniel",
      available_name: "Daniel",
      display_name: null,
      email: address,
      avatar_url: "",
      confirmed: true,
      account_id: null,
      role: null,
      inviter_id: null,
      accounts: [],
    });
    expect(res.body.access_token).toHaveLength(24);
    expect(res.body).not.toHaveProperty("custom_attributes");
    expect((await tokenRowOf("User", res.body.id))?.token).toBe(res.body.access_token);
    expect((await grantsOf("User", res.body.id)).map((g) => g.platformAppId)).toEqual([app.id]);
  });

  it("stores only a salted PBKDF2 hash of the password and never returns it", async () => {
    const app = await createPlatformApp();
    const res = await createUser(app.token, { name: "P", email: email(), password: "Secret12!" });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/Secret12|password/);
    const row = await userRow(res.body.id);
    expect(row?.passwordHash).toMatch(/^pbkdf2_sha256\$100000\$/);
    expect(await verifyPassword("Secret12!", row?.passwordHash ?? "")).toBe(true);
    expect(await verifyPassword("Secret12?", row?.passwordHash ?? "")).toBe(false);
  });

  it("returns custom_attributes and display_name when given", async () => {
    const app = await createPlatformApp();
    const res = await createUser(app.token, {
      name: "Daniel",
      display_name: "Dan",
      email: email(),
      custom_attributes: { plan: "pro" },
    });
    expectUserRecord(res.body);
    expect(res.body).toMatchObject({
      display_name: "Dan",
      available_name: "Dan",
      custom_attributes: { plan: "pro" },
    });
  });

  it("returns and updates the app's own user when the email exists, ignoring its case", async () => {
    const app = await createPlatformApp();
    const address = email();
    const first = await createUser(app.token, { name: "First", email: address });
    const again = await createUser(app.token, { name: "Second", email: address.toUpperCase() });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, name: "Second", email: address });
    expect(again.body.access_token).toBe(first.body.access_token);
  });

  it("answers 422 for another app's email without revealing the user", async () => {
    const owner = await createPlatformApp();
    const stranger = await createPlatformApp();
    const address = email();
    const mine = await createUser(owner.token, { name: "Mine", email: address });
    const res = await createUser(stranger.token, { name: "Theirs", email: address });
    const err = expectError(res, 422, "validation_failed");
    expect(err.error).toBe("Email has already been taken");
    expect(err.details).toEqual([{ path: "email", message: "has already been taken" }]);
    expect(JSON.stringify(res.body)).not.toContain(String(mine.body.access_token));
    expect((await userRow(mine.body.id))?.name).toBe("Mine");
    expect(await grantsOf("User", mine.body.id)).toHaveLength(1);
  });

  it("never answers 500 when two creates race for one email", async () => {
    const app = await createPlatformApp();
    const address = email();
    const results = await Promise.all(
      [1, 2, 3].map((n) => createUser(app.token, { name: `Racer ${n}`, email: address })),
    );
    for (const res of results) {
      expect([200, 422]).toContain(res.status);
    }
    const ids = new Set(results.filter((r) => r.status === 200).map((r) => r.body.id));
    expect(ids.size).toBe(1);
  });

  it("answers 422 listing each invalid field", async () => {
    const app = await createPlatformApp();
    const err = expectError(
      await createUser(app.token, {
        email: "not-an-email",
        password: "123",
        custom_attributes: [],
      }),
      422,
      "validation_failed",
    );
    expect(err.details.map((d) => d.path).sort()).toEqual([
      "custom_attributes",
      "email",
      "name",
      "password",
    ]);
    expectError(await createUser(app.token, { name: " ", email: email() }), 422);
    expectError(await api("/platform/api/v1/users", { token: app.token, raw: "{nope" }), 400);
  });

  it("refuses missing, unknown and user tokens", async () => {
    const { admin } = await createWorld();
    const body = { name: "x", email: email() };
    expectError(await api("/platform/api/v1/users", { body }), 401, "unauthorized");
    expectError(await createUser("nope", body), 401, "invalid_token");
    expectError(await createUser(admin.token, body), 401, "invalid_token");
  });
});

describe("GET /platform/api/v1/users/{id} (E7)", () => {
  it("shows the user's accounts, with the first account's id, role and inviter", async () => {
    const app = await createPlatformApp();
    const user = await createManagedUser(app.id);
    const first = await createManagedAccount(app.id);
    const second = await createManagedAccount(app.id);
    await addToAccount(first.id, user.id, "administrator");
    await addToAccount(second.id, user.id, "agent");
    const res = await api(`/platform/api/v1/users/${user.id}`, { token: app.token });
    expect(res.status).toBe(200);
    expectUserRecord(res.body);
    expect(res.body).toMatchObject({
      id: user.id,
      account_id: first.id,
      role: "administrator",
      access_token: user.token,
    });
    expect(res.body.accounts).toEqual([
      expect.objectContaining({
        id: first.id,
        name: first.name,
        status: "active",
        role: "administrator",
        active_at: null,
      }),
      expect.objectContaining({ id: second.id, role: "agent", permissions: ["agent"] }),
    ]);
  });

  it("answers 404 for another app's user, an unknown id and a malformed id", async () => {
    const owner = await createPlatformApp();
    const stranger = await createPlatformApp();
    const user = await createManagedUser(owner.id);
    expectError(
      await api(`/platform/api/v1/users/${user.id}`, { token: stranger.token }),
      404,
      "not_found",
    );
    expectError(await api("/platform/api/v1/users/999999999", { token: owner.token }), 404);
    expectError(await api("/platform/api/v1/users/abc", { token: owner.token }), 404);
  });
});

describe("PATCH /platform/api/v1/users/{id}", () => {
  it("changes only the given fields", async () => {
    const app = await createPlatformApp();
    const created = await createUser(app.token, {
      name: "Ann",
      email: email(),
      custom_attributes: { a: 1 },
    });
    const id = created.body.id;
    const res = await api(`/platform/api/v1/users/${id}`, {
      method: "PATCH",
      token: app.token,
      body: { display_name: "Annie", custom_attributes: { b: 2 } },
    });
    expect(res.status).toBe(200);
    expectUserRecord(res.body);
    expect(res.body).toMatchObject({
      name: "Ann",
      display_name: "Annie",
      available_name: "Annie",
      email: created.body.email,
      custom_attributes: { a: 1, b: 2 },
    });
    const password = await api(`/platform/api/v1/users/${id}`, {
      method: "PATCH",
      token: app.token,
      body: { password: "another-one" },
    });
    expect(password.status).toBe(200);
    expect(await verifyPassword("another-one", (await userRow(id))?.passwordHash ?? "")).toBe(true);
  });

  it("answers 422 for a taken email or invalid fields, and changes nothing", async () => {
    const app = await createPlatformApp();
    const a = await createUser(app.token, { name: "A", email: email() });
    const b = await createUser(app.token, { name: "B", email: email() });
    const path = `/platform/api/v1/users/${b.body.id}`;
    const taken = expectError(
      await api(path, {
        method: "PATCH",
        token: app.token,
        body: { email: a.body.email.toUpperCase() },
      }),
      422,
    );
    expect(taken.details[0]?.path).toBe("email");
    const invalid = expectError(
      await api(path, {
        method: "PATCH",
        token: app.token,
        body: { name: "", email: "x", display_name: 3 },
      }),
      422,
    );
    expect(invalid.details.map((d) => d.path).sort()).toEqual(["display_name", "email", "name"]);
    expect(await userRow(b.body.id)).toMatchObject({ name: "B", email: b.body.email });
  });

  it("answers 404 for another app's user", async () => {
    const owner = await createPlatformApp();
    const stranger = await createPlatformApp();
    const user = await createManagedUser(owner.id);
    const res = await api(`/platform/api/v1/users/${user.id}`, {
      method: "PATCH",
      token: stranger.token,
      body: { name: "hijacked" },
    });
    expectError(res, 404);
    expect((await userRow(user.id))?.name).toBe(user.name);
  });
});

describe("DELETE /platform/api/v1/users/{id}", () => {
  it("removes the user, their token, memberships and grants", async () => {
    const app = await createPlatformApp();
    const user = await createManagedUser(app.id);
    const account = await createManagedAccount(app.id);
    await addToAccount(account.id, user.id, "agent");
    const res = await api(`/platform/api/v1/users/${user.id}`, {
      method: "DELETE",
      token: app.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await userRow(user.id)).toBeUndefined();
    expect(await tokenRowOf("User", user.id)).toBeUndefined();
    expect(await membershipsOf(user.id)).toEqual([]);
    expect(await grantsOf("User", user.id)).toEqual([]);
    expectError(
      await api(`/api/v1/accounts/${account.id}`, { token: user.token }),
      401,
      "invalid_token",
    );
    expectError(await api(`/platform/api/v1/users/${user.id}`, { token: app.token }), 404);
  });

  it("answers 404 for another app's user and leaves it in place", async () => {
    const owner = await createPlatformApp();
    const stranger = await createPlatformApp();
    const user = await createManagedUser(owner.id);
    expectError(
      await api(`/platform/api/v1/users/${user.id}`, { method: "DELETE", token: stranger.token }),
      404,
    );
    expect(await userRow(user.id)).toBeDefined();
  });
});
