// Issue 20 point 5: sign-in throttling no longer lets anyone lock a named user out, and a
// profile's current_password is throttled the same way (worker/modules/auth/throttle.ts).
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as t from "../../../worker/db/schema";
import { nowSeconds } from "../../../worker/lib/time";
import { pruneSignInFailures, THROTTLE } from "../../../worker/modules/auth/throttle";
import { hashPassword } from "../../../worker/modules/users/password";
import { createUser, db } from "../../support/factories";
import { freshIp } from "../../support/factories-public";
import { api, expectError } from "../../support/http";
import { inOneWindow } from "../../support/rate-window";

const RIGHT = "right password 1";

async function userWithPassword() {
  return createUser({ passwordHash: await hashPassword(RIGHT) });
}

const signIn = (email: string, password: string, ip: string) =>
  api("/auth/sign_in", { body: { email, password }, headers: { "cf-connecting-ip": ip } });

const failuresOf = (email: string, ip: string) =>
  db()
    .select()
    .from(t.signInFailures)
    .where(and(eq(t.signInFailures.email, email.toLowerCase()), eq(t.signInFailures.ip, ip)))
    .all();

describe("sign-in throttling", () => {
  it("never locks a named user out by failing their email from one address", async () => {
    await inOneWindow(20, async () => {
      const user = await userWithPassword();
      const attacker = freshIp();
      for (let i = 0; i < 10; i++) {
        expect((await signIn(user.email, `guess ${i}`, attacker)).status).toBe(401);
      }
      // The attacker's own address is slowed down …
      const limited = await signIn(user.email, "guess 10", attacker);
      expectError(limited, 429, "rate_limited");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      // … the user, from their own address, is not.
      expect((await signIn(user.email, RIGHT, freshIp())).status).toBe(200);
    });
  }, 240_000);

  it("refuses the addresses that failed an email from many, never a clean one", async () => {
    const user = await userWithPassword();
    const [a, b, c] = [freshIp(), freshIp(), freshIp()];
    for (const from of [a, b, c] as string[]) {
      for (let i = 0; i < THROTTLE.FAILURES_PER_ADDRESS; i++) {
        expectError(await signIn(user.email, `spread ${i}`, from), 401);
      }
    }
    // Refused before the password is checked: even the right one, from an address that failed.
    const refused = expectError(await signIn(user.email, RIGHT, a as string), 429, "rate_limited");
    expect(refused.error).toContain("this email from this address");
    const wait = Number((await signIn(user.email, RIGHT, b as string)).headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(THROTTLE.WINDOW_SECONDS);
    // A fresh address is still checked: its guesses fail as guesses, until it too has failed.
    const d = freshIp();
    for (let i = 0; i < THROTTLE.FAILURES_PER_ADDRESS; i++) {
      expectError(await signIn(user.email, `late ${i}`, d), 401, "invalid_credentials");
    }
    expectError(await signIn(user.email, RIGHT, d), 429);
    // And the user's own clean address signs in with the right password.
    expect((await signIn(user.email, RIGHT, freshIp())).status).toBe(200);
  });

  it("forgives an address its failures when it gives the right password", async () => {
    const user = await userWithPassword();
    const home = freshIp();
    expectError(await signIn(user.email, "typo", home), 401);
    expect(await failuresOf(user.email, home)).toHaveLength(1);
    expect((await signIn(user.email, RIGHT, home)).status).toBe(200);
    expect(await failuresOf(user.email, home)).toHaveLength(0);
  });

  it("forgets failures older than the window (the cron sweep)", async () => {
    const email = `${freshIp()}@old.example`;
    const now = nowSeconds();
    await db()
      .insert(t.signInFailures)
      .values([
        { email, ip: "192.0.2.1", at: now - THROTTLE.WINDOW_SECONDS - 5 },
        { email, ip: "192.0.2.2", at: now - 5 },
      ]);
    expect(await pruneSignInFailures(env, now)).toBeGreaterThanOrEqual(1);
    const left = await db()
      .select()
      .from(t.signInFailures)
      .where(eq(t.signInFailures.email, email))
      .all();
    expect(left.map((r) => r.ip)).toEqual(["192.0.2.2"]);
  });
});

describe("PUT /api/v1/profile current_password", () => {
  it("is throttled like sign-in: per email from one address, never the user's clean one", async () => {
    await inOneWindow(20, async () => {
      const user = await userWithPassword();
      const change = (current_password: string, ip: string) =>
        api("/api/v1/profile", {
          method: "PUT",
          token: user.token,
          body: { password: "new password 1", current_password },
          headers: { "cf-connecting-ip": ip },
        });
      const thief = freshIp();
      for (let i = 0; i < 10; i++) {
        expectError(await change(`guess ${i}`, thief), 422);
      }
      expectError(await change(RIGHT, thief), 429, "rate_limited");
      // The failures are the email's, as sign-in's are.
      expect(await failuresOf(user.email, thief)).toHaveLength(10);
      expect((await change(RIGHT, freshIp())).status).toBe(200);
    });
  }, 240_000);
});
