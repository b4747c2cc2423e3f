import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import { createPlatformApp, createUser, db } from "../../support/factories";
import { createManagedUser } from "../../support/factories-users";
import { api, expectError } from "../../support/http";

const PREFIX = "https://chat.parley.test/app/login#sso_auth_token=";

/** A sign-in link for the app's user, and the token in its fragment. */
async function linkFor(appToken: string, userId: number, headers: Record<string, string> = {}) {
  const r = await api(`/platform/api/v1/users/${userId}/login`, { token: appToken, headers });
  expect(r.status).toBe(200);
  expect(r.body.url.startsWith(PREFIX)).toBe(true);
  return { url: r.body.url as string, token: r.body.url.slice(PREFIX.length) as string };
}

const exchange = (token: unknown) => api("/auth/sso", { body: { sso_auth_token: token } });

describe("GET /platform/api/v1/users/{id}/login", () => {
  it("answers a URL on PUBLIC_URL whose token signs the user in once", async () => {
    const app = await createPlatformApp();
    const user = await createManagedUser(app.id);
    // A forged Host must not move the link to another server.
    const { token } = await linkFor(app.token, user.id, { host: "evil.example" });
    expect(token).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43}$/);
    const first = await exchange(token);
    expect(first.status).toBe(200);
    expect(first.body.data.id).toBe(user.id);
    expect(first.body.data.access_token).toEqual(expect.any(String));
    // The access token signs API calls as the user.
    const me = await api("/api/v1/profile", { token: first.body.data.access_token });
    expect(me.body.id).toBe(user.id);
    // Single use.
    expectError(await exchange(token), 422);
    // Only the token's hash is stored.
    const rows = await db().select().from(t.oneTimeLinks).where(eq(t.oneTimeLinks.userId, user.id));
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
  });

  it("voids the previous link when a new one is made, and expires after five minutes", async () => {
    const app = await createPlatformApp();
    const user = await createManagedUser(app.id);
    const older = await linkFor(app.token, user.id);
    const newer = await linkFor(app.token, user.id);
    expectError(await exchange(older.token), 422);
    await db()
      .update(t.oneTimeLinks)
      .set({ expiresAt: Math.floor(Date.now() / 1000) - 1 })
      .where(eq(t.oneTimeLinks.userId, user.id));
    expectError(await exchange(newer.token), 422);
    const [row] = await db()
      .select()
      .from(t.oneTimeLinks)
      .where(eq(t.oneTimeLinks.userId, user.id));
    expect(row?.purpose).toBe("sso_login");
  });

  it("lives five minutes", async () => {
    const app = await createPlatformApp();
    const user = await createManagedUser(app.id);
    const before = Math.floor(Date.now() / 1000);
    await linkFor(app.token, user.id);
    const [row] = await db()
      .select()
      .from(t.oneTimeLinks)
      .where(eq(t.oneTimeLinks.userId, user.id));
    expect(row?.expiresAt).toBeGreaterThanOrEqual(before + 300);
    expect(row?.expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 300);
  });

  it("is only for users the app manages: others, unknown ids and other tokens are refused", async () => {
    const app = await createPlatformApp();
    const other = await createPlatformApp();
    const theirs = await createManagedUser(other.id);
    const nobodys = await createUser();
    for (const id of [theirs.id, nobodys.id, 999_999_999]) {
      expectError(await api(`/platform/api/v1/users/${id}/login`, { token: app.token }), 404);
    }
    expectError(await api(`/platform/api/v1/users/${theirs.id}/login`), 401);
    expectError(
      await api(`/platform/api/v1/users/${theirs.id}/login`, { token: theirs.token }),
      401,
    );
    const rows = await db()
      .select()
      .from(t.oneTimeLinks)
      .where(eq(t.oneTimeLinks.userId, theirs.id));
    expect(rows).toHaveLength(0);
  });
});

describe("POST /auth/sso", () => {
  it("refuses what is not a live link's token", async () => {
    for (const bad of ["", "x".repeat(129), 42, null]) {
      expectError(await exchange(bad), 422);
    }
    expectError(await exchange("3mJr7AoUXx2Wqd1ZkPd4Tv6Yh8fsLbNcQe5RaiBjKuG"), 422);
    expectError(await exchange("not a token!"), 422);
    expectError(await api("/auth/sso", { raw: "{" }), 400);
  });

  it("does not take another kind of link", async () => {
    const app = await createPlatformApp();
    const user = await createManagedUser(app.id);
    const { token } = await linkFor(app.token, user.id);
    await db()
      .update(t.oneTimeLinks)
      .set({ purpose: "set_password" })
      .where(eq(t.oneTimeLinks.userId, user.id));
    expectError(await exchange(token), 422);
  });
});
