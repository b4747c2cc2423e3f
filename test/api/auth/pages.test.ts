import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import worker from "../../../worker";
import { createWorld } from "../../support/factories";
import { api } from "../../support/http";
import { invitedAgent } from "../../support/invitations";
import { recordMail } from "../../support/mail";

let mail: ReturnType<typeof recordMail>;
beforeEach(() => {
  mail = recordMail();
});
afterEach(() => mail.stop());

/** A page request (form POST when `form`), answered once its after-response work is done. */
async function page(path: string, form?: Record<string, string>) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://parley.test${path}`, {
      method: form ? "POST" : "GET",
      headers: {
        "cf-connecting-ip": `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe("the mailed-link pages as product pages", () => {
  it("brand the set-password page with the account, show the email and a show-password button", async () => {
    const { account, email, link } = await invitedAgent(mail);
    const form = await page(link);
    expect(form.status).toBe(200);
    expect(form.text).toContain(`<strong>${email}</strong>`);
    expect(form.text).toContain(`<span class="acct">· ${account.name}</span>`);
    expect(form.text).toContain(`<title>Choose your password · ${account.name}</title>`);
    expect(form.text).toContain('<script src="/auth-page.js" defer></script>');
    expect(form.text).toMatch(
      /<button type="button" class="show" data-show="password"[^>]*hidden>/,
    );
    // Inputs follow the dark theme: their colours come from the page's variables.
    expect(form.text).toMatch(/input\{[^}]*color:var\(--fg\);background:var\(--card\)/);
    const csp = form.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline'[^;]*;.*script|script-src[^;]*unsafe/);

    const token = new URL(`http://x${link}`).searchParams.get("reset_password_token") ?? "";
    const done = await page("/app/auth/password/edit", {
      reset_password_token: token,
      password: "correct horse battery",
      password_confirmation: "correct horse battery",
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain("Your password is set");
    expect(done.text).toContain(`<strong>${email}</strong>`);
    expect(done.text).toContain('<a class="btn" href="/app/login">Open the agents\' app</a>');
  });

  it("offers 'Send me a new link' on a dead link, with no API jargon, and it mails one", async () => {
    const { email } = await invitedAgent(mail);
    const dead = await page("/app/auth/password/edit?reset_password_token=nope");
    expect(dead.status).toBe(404);
    expect(dead.text).toContain("Send me a new link");
    expect(dead.text).toContain('<form method="post" action="/app/auth/password/new">');
    expect(dead.text).not.toMatch(/POST |\/auth\/password\b(?!\/)/);

    const before = mail.sent.length;
    const sent = await page("/app/auth/password/new", { email: email.toUpperCase() });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain("Check your email");
    expect(mail.sent.length).toBe(before + 1);
    expect(mail.linkTo(email)).toMatch(/^\/app\/auth\/password\/edit\?reset_password_token=/);
    expect((await page(mail.linkTo(email))).status).toBe(200);

    // An unknown address gets the same page and no mail; a blank one is asked again.
    const unknown = await page("/app/auth/password/new", { email: "nobody@example.com" });
    expect(unknown.text).toBe(sent.text);
    expect(mail.sent.length).toBe(before + 1);
    const blank = await page("/app/auth/password/new", { email: " " });
    expect(blank.status).toBe(422);
    expect(blank.text).toContain('role="alert"');
    expect((await page("/app/auth/password/new")).text).toContain("Forgot your password?");
  });

  it("shows the invited email on the invitation and a way into the app after joining", async () => {
    const inviter = await createWorld();
    const other = await createWorld();
    const res = await api(`/api/v1/accounts/${inviter.account.id}/agents`, {
      token: inviter.admin.token,
      body: { name: "Existing", email: other.admin.email },
    });
    expect(res.status).toBe(200);
    const link = mail.linkTo(other.admin.email);
    const shown = await page(link);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`<strong>${other.admin.email}</strong>`);
    const token = new URL(`http://x${link}`).searchParams.get("invitation_token") ?? "";
    const joined = await page("/app/auth/invitation", { invitation_token: token });
    expect(joined.text).toContain(`Welcome to ${inviter.account.name}`);
    expect(joined.text).toContain('href="/app/login"');
  });
});
