import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

/**
 * The few pages a mailed link opens: plain HTML forms that work without JavaScript. They run
 * no script at all (the CSP says so), keep the token out of Referer headers, and are never
 * cached or framed.
 */
export const PAGE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
} as const;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1c2024}
main{max-width:26rem;margin:10vh auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:1rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;font:inherit;border:1px solid #8b8d98;border-radius:6px}
button{margin-top:1.25rem;width:100%;padding:.7rem;font:inherit;font-weight:600;color:#fff;background:#1f6feb;border:0;border-radius:6px;cursor:pointer}
.button{display:block;text-align:center;padding:.7rem;font-weight:600;color:#fff;background:#1f6feb;border-radius:6px;text-decoration:none}
.error{color:#b42318}@media (prefers-color-scheme:dark){body{background:#111;color:#eee}main{background:#1c1c1f}}`;

const page = (
  title: string,
  body: HtmlEscapedString | Promise<HtmlEscapedString>,
) => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" />
<title>${title} · Parley</title>
<style>${STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`;

const errorLine = (error: string | undefined) =>
  error ? html`<p class="error" role="alert">${error}</p>` : "";

export const passwordPage = (token: string, error?: string) =>
  page(
    "Choose your password",
    html`<h1>Choose your password</h1>
${errorLine(error)}
<form method="post" action="/app/auth/password/edit">
<input type="hidden" name="reset_password_token" value="${token}" />
<label for="password">New password (at least 8 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required />
<label for="password_confirmation">Repeat it</label>
<input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" minlength="8" maxlength="128" required />
<button type="submit">Set password</button>
</form>`,
  );

export const passwordSetPage = (email: string) =>
  page(
    "Password set",
    html`<h1>Your password is set</h1>
<p>Sign in as <strong>${email}</strong> to answer your team's conversations.</p>
<p><a class="button" href="/app/login">Open the inbox</a></p>
<p>API clients get a token with <code>POST /auth/sign_in</code>.</p>`,
  );

export const invitationPage = (token: string, accountName: string, role: string) =>
  page(
    "Invitation",
    html`<h1>Join ${accountName}</h1>
<p>You have been invited to join <strong>${accountName}</strong> as ${role === "administrator" ? "an administrator" : "an agent"}.</p>
<form method="post" action="/app/auth/invitation">
<input type="hidden" name="invitation_token" value="${token}" />
<button type="submit">Accept the invitation</button>
</form>`,
  );

export const joinedPage = (accountName: string) =>
  page(
    "Invitation accepted",
    html`<h1>Welcome to ${accountName}</h1>
<p>You are now a member. Sign in with your existing email and password.</p>
<p><a class="button" href="/app/login">Open the inbox</a></p>`,
  );

export const invalidLinkPage = () =>
  page(
    "Link expired",
    html`<h1>This link is invalid or has expired</h1>
<p>Links work once and expire. Ask for a new one: an administrator can invite you again, and
<a href="/app/forgot">forgot password</a> mails a fresh password link.</p>`,
  );
