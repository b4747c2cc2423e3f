import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorld, unique } from "../../support/factories";
import { findUserRow } from "../../support/factories-inboxes";
import { freshIp } from "../../support/factories-public";
import { api, expectError } from "../../support/http";
import { invitedAgent } from "../../support/invitations";
import { recordMail } from "../../support/mail";
import { inOneWindow } from "../../support/rate-window";
import { apiSettled } from "../../support/settled";

let mail: ReturnType<typeof recordMail>;
beforeEach(() => {
  mail = recordMail();
});
afterEach(() => mail.stop());

/** Each test its own address, so the per-address limits of one test never reach another. */
const ip = () => ({ "cf-connecting-ip": `198.51.100.${Math.floor(Math.random() * 250) + 1}` });

const page = (path: string, form?: Record<string, string>) => SELFfetch(path, form);

async function SELFfetch(path: string, form?: Record<string, string>) {
  const { SELF } = await import("cloudflare:test");
  const res = await SELF.fetch(`http://parley.test${path}`, {
    method: form ? "POST" : "GET",
    headers: { ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...ip() },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const signIn = (email: string, password: string, headers = ip()) =>
  api("/auth/sign_in", { body: { email, password }, headers });

describe("an agent created through the account API", () => {
  it("is mailed a link, chooses a password, signs in and calls the API with the token", async () => {
    const { account, email, id, link } = await invitedAgent(mail);
    expect(mail.sent.at(-1)?.subject).toContain(account.name);
    expect(link).toMatch(/^\/app\/auth\/password\/edit\?reset_password_token=\w{43}$/);
    expect((await findUserRow(id))?.confirmed).toBe(false);
    expect((await signIn(email, "correct horse battery")).status).toBe(401);

    const form = await page(link);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form method="post" action="/app/auth/password/edit">');
    expect(form.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(form.headers.get("referrer-policy")).toBe("no-referrer");
    expect(form.headers.get("cache-control")).toBe("no-store");

    const token = new URL(`http://x${link}`).searchParams.get("reset_password_token") ?? "";
    const done = await page("/app/auth/password/edit", {
      reset_password_token: token,
      password: "correct horse battery",
      password_confirmation: "correct horse battery",
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain("Your password is set");
    expect((await findUserRow(id))?.confirmed).toBe(true);

    const session = await signIn(email.toUpperCase(), "correct horse battery");
    expect(session.status).toBe(200);
    expect(session.body.data).toMatchObject({ id, email, provider: "email", uid: email });
    expect(session.body.data.accounts).toEqual([
      expect.objectContaining({ id: account.id, role: "agent" }),
    ]);
    const own = await api(`/api/v1/accounts/${account.id}/conversations`, {
      token: session.body.data.access_token,
    });
    expect(own.status).toBe(200);

    // The link worked once.
    const again = await page("/app/auth/password/edit", {
      reset_password_token: token,
      password: "another password 1",
      password_confirmation: "another password 1",
    });
    expect(again.status).toBe(404);
    expect((await signIn(email, "another password 1")).status).toBe(401);
  });

  it("keeps the form on a short or mismatched password, and the link stays usable", async () => {
    const { email, link } = await invitedAgent(mail);
    const token = new URL(`http://x${link}`).searchParams.get("reset_password_token") ?? "";
    const short = await page("/app/auth/password/edit", {
      reset_password_token: token,
      password: "short",
      password_confirmation: "short",
    });
    expect(short.status).toBe(422);
    expect(short.text).toContain("8 to 128 characters");
    const differ = await page("/app/auth/password/edit", {
      reset_password_token: token,
      password: "long enough one",
      password_confirmation: "long enough two",
    });
    expect(differ.status).toBe(422);
    expect(differ.text).toContain("differ");
    expect((await signIn(email, "long enough one")).status).toBe(401);
    expect((await page(link)).status).toBe(200);
  });

  it("shows one page for made-up, hostile and expired links, and escapes what it echoes", async () => {
    for (const token of ["nope", "<script>alert(1)</script>", "x".repeat(500), ""]) {
      const res = await page(
        `/app/auth/password/edit?reset_password_token=${encodeURIComponent(token)}`,
      );
      expect(res.status).toBe(404);
      expect(res.text).toContain("invalid or has expired");
      expect(res.text).not.toContain("<script>");
    }
    const bad = await page("/app/auth/invitation?invitation_token=%3Cimg%20src%3Dx%3E");
    expect(bad.status).toBe(404);
    expect(bad.text).not.toContain("<img");
  });
});

describe("POST /auth/sign_in", () => {
  it("answers every wrong email or password with the same 401", async () => {
    const { email, link } = await invitedAgent(mail);
    const token = new URL(`http://x${link}`).searchParams.get("reset_password_token") ?? "";
    await api("/auth/password", {
      method: "PUT",
      body: {
        reset_password_token: token,
        password: "right password",
        password_confirmation: "right password",
      },
      headers: ip(),
    });
    const wrong = expectError(await signIn(email, "wrong password"), 401, "invalid_credentials");
    const nobody = expectError(
      await signIn(`${unique("nobody")}@example.com`, "right password"),
      401,
      "invalid_credentials",
    );
    expect(wrong.error).toBe(nobody.error);
    expect(wrong.error).toBe("Invalid login credentials. Please try again.");
    expect((await signIn(email, "right password")).status).toBe(200);
  });

  it("refuses users who never chose a password, and bad bodies with 422", async () => {
    const { admin } = await createWorld();
    expectError(await signIn(admin.email, ""), 422, "validation_failed");
    expectError(await signIn(admin.email, "anything at all"), 401, "invalid_credentials");
    expectError(
      await api("/auth/sign_in", { body: { email: ["x"], password: { a: 1 } }, headers: ip() }),
      422,
    );
    expectError(await signIn(admin.email, "p".repeat(129)), 422);
  });

  it("limits attempts per email from one address (10 a minute) and per address (30 a minute)", async () => {
    await inOneWindow(10, async () => {
      const email = `${unique("target")}@example.com`;
      const one = { "cf-connecting-ip": freshIp() };
      for (let i = 0; i < 10; i++) {
        expect((await signIn(email, `guess ${i}`, one)).status).toBe(401);
      }
      // Other addresses are not refused for it: sign-in-throttle.test.ts.
      const limited = await signIn(email, "guess 10", one);
      expectError(limited, 429, "rate_limited");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    });

    await inOneWindow(20, async () => {
      const from = { "cf-connecting-ip": freshIp() };
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        statuses.push((await signIn(`${unique("spray")}@example.com`, "pw", from)).status);
      }
      expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
      expect(statuses[30]).toBe(429);
      // X-Forwarded-For does not make a fresh address.
      const spoofed = await signIn(`${unique("spray")}@example.com`, "pw", {
        ...from,
        "x-forwarded-for": "192.0.2.1",
      } as never);
      expect(spoofed.status).toBe(429);
    });
  }, 240_000);
});

describe("password reset", () => {
  it("answers the same for known and unknown emails, and mails only the known", async () => {
    const { email } = await invitedAgent(mail);
    const before = mail.sent.length;
    // The mail leaves after the answer (waitUntil): apiSettled waits for that too.
    const known = await apiSettled("/auth/password", { body: { email } });
    const unknown = await apiSettled("/auth/password", {
      body: { email: `${unique("ghost")}@example.com` },
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(mail.sent.length).toBe(before + 1);
    expect(mail.sent.at(-1)?.to).toEqual([email]);
    expect(mail.sent.at(-1)?.subject).toBe("Reset your Parley password");
  });

  it("sets a new password through PUT /auth/password; the newest link voids older ones", async () => {
    const { email, link: first } = await invitedAgent(mail);
    await apiSettled("/auth/password", { body: { email } });
    const latest = mail.linkTo(email);
    expect(latest).not.toBe(first);
    const tokenOf = (link: string) =>
      new URL(`http://x${link}`).searchParams.get("reset_password_token") ?? "";

    expectError(
      await api("/auth/password", {
        method: "PUT",
        body: { reset_password_token: tokenOf(first), password: "brand new pass" },
        headers: ip(),
      }),
      422,
    );
    const mismatch = expectError(
      await api("/auth/password", {
        method: "PUT",
        body: {
          reset_password_token: tokenOf(latest),
          password: "brand new pass",
          password_confirmation: "other",
        },
        headers: ip(),
      }),
      422,
    );
    expect(mismatch.details).toEqual([
      { path: "password_confirmation", message: "doesn't match password" },
    ]);
    const ok = await api("/auth/password", {
      method: "PUT",
      body: { reset_password_token: tokenOf(latest), password: "brand new pass" },
      headers: ip(),
    });
    expect(ok.status).toBe(200);
    expect((await signIn(email, "brand new pass")).status).toBe(200);
  });
});
