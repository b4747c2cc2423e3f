import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { FORM_PAGE_BASE_STYLE, formPageHeaders } from "../../lib/form-page";

/**
 * The few pages a mailed link opens: plain HTML forms that work without JavaScript (one
 * first-party script only adds the show-password buttons). They keep the token out of Referer
 * headers, and are never cached or framed.
 */
export const PAGE_HEADERS = formPageHeaders({ script: true });

const STYLE = `${FORM_PAGE_BASE_STYLE}
main{max-width:27rem;margin:8vh auto 2rem;padding:0 1rem}
.brand{display:flex;align-items:center;gap:.55rem;margin:0 0 1rem .25rem;font-weight:700;font-size:1.05rem}.brand .acct{font-weight:500;color:var(--mu)}
.card{padding:1.75rem;background:var(--card);border:1px solid var(--bd);border-radius:14px;box-shadow:0 1px 3px #0000000d}
h1{font-size:1.45rem;line-height:1.25;margin:0 0 .5rem}p{margin:.5rem 0}.mu{color:var(--mu)}
label{display:block;margin:1.1rem 0 .3rem;font-weight:600}
input{width:100%;padding:.65rem .75rem;font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--bd);border-radius:8px}
input:focus{outline:2px solid var(--ac);outline-offset:1px;border-color:var(--ac)}
.pw{position:relative}.pw input{padding-right:4.5rem}
.show{position:absolute;right:.35rem;top:50%;transform:translateY(-50%);padding:.3rem .6rem;font:inherit;font-size:.85rem;font-weight:600;color:var(--ac);background:none;border:0;border-radius:6px;cursor:pointer}
.show:focus-visible{outline:2px solid var(--ac)}
.hint{font-size:.88rem;color:var(--mu);margin:.3rem 0 0}form+.hint{margin-top:1rem}
.btn{display:block;width:100%;margin-top:1.4rem;padding:.75rem;font:inherit;font-weight:600;text-align:center;text-decoration:none;color:var(--ac-fg);background:var(--ac);border:0;border-radius:8px;cursor:pointer}
.btn:focus-visible{outline:2px solid var(--fg);outline-offset:2px}
.error{color:var(--err);font-weight:600}
footer{margin:1.25rem .25rem;font-size:.88rem;color:var(--mu)}footer a{color:inherit}
@media(max-width:30rem){main{margin-top:1.5rem}.card{padding:1.25rem}}`;

/** The product mark, inline (the page echoes tokens, so it carries no <img> of its own). */
const LOGO = `<svg aria-hidden="true" width="28" height="28" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#1f6feb"/><path d="M8 9.5A2.5 2.5 0 0 1 10.5 7h11A2.5 2.5 0 0 1 24 9.5v8a2.5 2.5 0 0 1-2.5 2.5H15l-5 4.5V20h.5A2.5 2.5 0 0 1 8 17.5z" fill="#fff"/></svg>`;

/** What a mailed link's page shows besides its form: the email being set up, and the account. */
export type LinkFacts = { email: string | null; account: string | null };

type Body = HtmlEscapedString | Promise<HtmlEscapedString>;

const page = (title: string, body: Body, account: string | null = null, script = false) =>
  html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" />
<title>${title} · ${account ?? "Parley"}</title>
<link rel="icon" href="/parley-icon.svg" type="image/svg+xml" />
<style>${raw(STYLE)}</style>
${script ? html`<script src="/auth-page.js" defer></script>` : ""}
</head>
<body><main>
<div class="brand">${raw(LOGO)}<span>Parley</span>${
    account ? html`<span class="acct">· ${account}</span>` : ""
  }</div>
<div class="card">${body}</div>
<footer>Parley, customer conversations · <a href="/app">Agents' app</a></footer>
</main></body>
</html>`;

const errorLine = (error: string | undefined) =>
  error ? html`<p class="error" role="alert">${error}</p>` : "";

const openApp = html`<a class="btn" href="/app/login">Open the agents' app</a>`;

/** A password field with its show/hide button (the script unhides it; without it, none). */
const passwordField = (id: string, label: string, hint?: string) =>
  html`<label for="${id}">${label}</label>
<div class="pw"><input id="${id}" name="${id}" type="password" autocomplete="new-password" minlength="8" maxlength="128" required${
    hint ? html` aria-describedby="${id}-hint"` : ""
  } /><button type="button" class="show" data-show="${id}" aria-controls="${id}" hidden>Show</button></div>
${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ""}`;

export const passwordPage = (token: string, facts: LinkFacts, error?: string) =>
  page(
    "Choose your password",
    html`<h1>Choose your password</h1>
${
  facts.email
    ? html`<p class="mu">For <strong>${facts.email}</strong>${facts.account ? html` at ${facts.account}` : ""}.</p>`
    : ""
}
${errorLine(error)}
<form method="post" action="/app/auth/password/edit">
<input type="hidden" name="reset_password_token" value="${token}" />
${passwordField("password", "New password", "At least 8 characters; a few words make a strong one.")}
${passwordField("password_confirmation", "Repeat it")}
<button class="btn" type="submit">Set password</button>
</form>`,
    facts.account,
    true,
  );

export const passwordSetPage = (email: string, account: string | null) =>
  page(
    "Password set",
    html`<h1>Your password is set</h1>
<p>From now on, sign in as <strong>${email}</strong> with it.</p>
${openApp}`,
    account,
  );

export const invitationPage = (
  token: string,
  accountName: string,
  role: string,
  facts: LinkFacts,
) =>
  page(
    "Invitation",
    html`<h1>Join ${accountName}</h1>
<p>You have been invited to join <strong>${accountName}</strong> as ${role === "administrator" ? "an administrator" : "an agent"}${
      facts.email ? html`, with your account <strong>${facts.email}</strong>` : ""
    }.</p>
<form method="post" action="/app/auth/invitation">
<input type="hidden" name="invitation_token" value="${token}" />
<button class="btn" type="submit">Accept the invitation</button>
</form>`,
    accountName,
  );

export const joinedPage = (accountName: string) =>
  page(
    "Invitation accepted",
    html`<h1>Welcome to ${accountName}</h1>
<p>You are now a member. Sign in with your existing email and password.</p>
${openApp}`,
    accountName,
  );

/** The form that mails a fresh password link, for an expired link or a forgotten password. */
const newLinkForm = (error?: string) => html`${errorLine(error)}
<form method="post" action="/app/auth/password/new">
<label for="email">Your email</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="255" required />
<button class="btn" type="submit">Send me a new link</button>
</form>`;

export const invalidLinkPage = () =>
  page(
    "Link expired",
    html`<h1>This link is invalid or has expired</h1>
<p class="mu">Links work once, and only for a while. Enter your email and we'll send you a new
one to choose your password.</p>
${newLinkForm()}
<p class="hint">Invited to join a team? Ask its administrator to invite you again.</p>`,
  );

export const newLinkPage = (error?: string) =>
  page(
    "Forgot your password",
    html`<h1>Forgot your password?</h1>
<p class="mu">Enter your email and we'll send you a link to choose a new one.</p>
${newLinkForm(error)}`,
  );

export const linkSentPage = (message: string) =>
  page(
    "Check your email",
    html`<h1>Check your email</h1>
<p>${message}</p>
<p class="hint">The link works once, for 6 hours. Nothing there? Look in spam, or
<a href="/app/auth/password/new">ask again</a>.</p>`,
  );
