import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import { hashPassword } from "../../../worker/modules/users/password";
import {
  createAgentBot,
  createPlatformApp,
  createUser,
  createWorld,
  db,
  unique,
} from "../../support/factories";
import { findUserRow } from "../../support/factories-inboxes";
import { api, expectError } from "../../support/http";

const PROFILE = "/api/v1/profile";
const ip = () => ({ "cf-connecting-ip": `192.0.2.${Math.floor(Math.random() * 250) + 1}` });

async function withPassword(userId: number, password: string) {
  await db()
    .update(t.users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(t.users.id, userId));
}

describe("GET /api/v1/profile", () => {
  it("answers the token's user with its token and accounts", async () => {
    const { account, agent } = await createWorld();
    const res = await api(PROFILE, { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: agent.id,
      email: agent.email,
      name: agent.name,
      access_token: agent.token,
      accounts: [expect.objectContaining({ id: account.id, role: "agent" })],
    });
  });

  it("answers 401 to no token, unknown tokens, bots and platform apps", async () => {
    const { bot } = await createWorld();
    const app = await createPlatformApp();
    expectError(await api(PROFILE), 401);
    expectError(await api(PROFILE, { token: "nope" }), 401, "invalid_token");
    expectError(await api(PROFILE, { token: bot.token }), 401, "not_authorized_for_bots");
    expectError(await api(PROFILE, { token: app.token }), 401, "invalid_token");
    const lone = await createAgentBot({ accountId: null });
    expectError(await api(PROFILE, { token: lone.token }), 401);
  });
});

describe("PUT /api/v1/profile", () => {
  it("changes the user's own name, display name, signature and settings, flat or nested", async () => {
    const { agent } = await createWorld();
    const res = await api(PROFILE, {
      method: "PUT",
      token: agent.token,
      body: {
        profile: {
          name: "Own Name",
          display_name: "Owny",
          message_signature: "-- O",
          ui_settings: { theme: "dark" },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Own Name",
      display_name: "Owny",
      available_name: "Owny",
      message_signature: "-- O",
      ui_settings: { theme: "dark" },
    });
    const flat = await api(PROFILE, { method: "PUT", token: agent.token, body: { name: "Flat" } });
    expect(flat.body.name).toBe("Flat");
    expect(flat.body.ui_settings).toEqual({ theme: "dark" });
  });

  it("changes the password or email only with the current password", async () => {
    const { agent } = await createWorld();
    await withPassword(agent.id, "old password 1");
    const change = (body: Record<string, unknown>) =>
      api(PROFILE, { method: "PUT", token: agent.token, body });

    const missing = expectError(await change({ password: "new password 1" }), 422);
    expect(missing.details).toEqual([{ path: "current_password", message: "is invalid" }]);
    expectError(await change({ password: "new password 1", current_password: "wrong one" }), 422);
    expectError(
      await change({ email: `${unique("moved")}@example.com`, current_password: "nope" }),
      422,
    );
    expectError(
      await change({
        password: "new password 1",
        password_confirmation: "different",
        current_password: "old password 1",
      }),
      422,
    );
    expectError(await change({ password: "short", current_password: "old password 1" }), 422);
    const before = await findUserRow(agent.id);

    const ok = await change({ password: "new password 1", current_password: "old password 1" });
    expect(ok.status).toBe(200);
    expect((await findUserRow(agent.id))?.passwordHash).not.toBe(before?.passwordHash);
    const signIn = await api("/auth/sign_in", {
      body: { email: agent.email, password: "new password 1" },
      headers: ip(),
    });
    expect(signIn.status).toBe(200);

    const taken = await createUser();
    const clash = expectError(
      await change({ email: taken.email, current_password: "new password 1" }),
      422,
    );
    expect(clash.details).toEqual([{ path: "email", message: "has already been taken" }]);
    const email = `${unique("moved")}@example.com`;
    const moved = await change({ email, current_password: "new password 1" });
    expect(moved.body.email).toBe(email);
  });

  it("answers 422 to invalid fields, changing nothing", async () => {
    const { agent } = await createWorld();
    const res = await api(PROFILE, {
      method: "PUT",
      token: agent.token,
      body: { name: "", display_name: 5, ui_settings: "x" },
    });
    const err = expectError(res, 422, "validation_failed");
    expect(err.details.map((d) => d.path).sort()).toEqual(["display_name", "name", "ui_settings"]);
    expect((await findUserRow(agent.id))?.name).toBe(agent.name);
  });
});

describe("POST /api/v1/profile/reset_access_token", () => {
  it("answers a new token; the old one stops working at once", async () => {
    const { account, agent } = await createWorld();
    const res = await api(`${PROFILE}/reset_access_token`, { method: "POST", token: agent.token });
    expect(res.status).toBe(200);
    const fresh = res.body.access_token as string;
    expect(fresh).toMatch(/^\w{24}$/);
    expect(fresh).not.toBe(agent.token);
    expectError(await api(PROFILE, { token: agent.token }), 401, "invalid_token");
    expectError(await api(`/api/v1/accounts/${account.id}`, { token: agent.token }), 401);
    expect((await api(PROFILE, { token: fresh })).body.id).toBe(agent.id);
  });
});
