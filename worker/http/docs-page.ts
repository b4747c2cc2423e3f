import type { Context } from "hono";
import { html } from "hono/html";
import { demoFacts } from "../lib/demo";
import type { AppEnv } from "./context";

/**
 * The reference page's policy: everything from this origin, nothing from anywhere else, no
 * inline code. Its script and stylesheet are static assets (widget/public/api-docs.*).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The local demo's tokens, which the examples then use (data-* for the page's script). */
function demoNote(c: Context<AppEnv>) {
  const demo = demoFacts(c.env.PARLEY_DEMO, c.req.url);
  if (!demo) {
    return "";
  }
  return html`<div id="demo" class="demo" data-account="${demo.account}" data-token="${demo.admin}"${
    demo.platform ? html` data-platform="${demo.platform}"` : ""
  }${demo.apiInbox ? html` data-api-inbox="${demo.apiInbox}"` : ""}>
<p><strong>This is the local demo.</strong> The examples below use its admin token, ready to paste:</p>
<dl>
<dt>Account id</dt><dd><code>${demo.account}</code></dd>
<dt>Admin token</dt><dd><code>${demo.admin}</code></dd>
<dt>Agent token</dt><dd><code>${demo.agent}</code></dd>
${demo.platform ? html`<dt>Platform token</dt><dd><code>${demo.platform}</code></dd>` : ""}
</dl>
</div>`;
}

const page = (c: Context<AppEnv>) => {
  const origin = new URL(c.req.url).origin;
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Parley API reference</title>
    <meta name="description" content="Parley's API: every endpoint with its fields, an example request and its response." />
    <link rel="icon" href="/parley-icon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/api-docs.css" />
    <script src="/api-docs.js" defer></script>
  </head>
  <body>
    <header>
      <div class="bar">
        <a class="brand" href="/"><img src="/parley-icon.svg" alt="" width="24" height="24" />Parley API</a>
        <span id="version" class="mu">version ${c.env.SERVICE_VERSION ?? "dev"}</span>
        <label class="find"><span class="sr">Filter operations</span>
          <input id="filter" type="search" placeholder="Filter: method, path or words" autocomplete="off" />
        </label>
      </div>
    </header>
    <div class="layout">
      <nav aria-label="Sections"><ul id="toc"><li><a href="#start">Getting started</a></li></ul></nav>
      <main id="reference">
        <section id="start">
          <h1>API reference</h1>
          <p>Every path below is relative to this server, <code>${origin}</code>. Requests and
          answers are JSON (uploads are <code>multipart/form-data</code>); generated from
          <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
          <h2>Authentication</h2>
          <p>Send a token in the <code>api_access_token</code> header. An agent or admin gets
          theirs by signing in: <code>POST /auth/sign_in</code> with
          <code>{"email", "password"}</code> answers <code>data.access_token</code> (or copy it from
          the profile in the agents' app). Agent bots and platform apps get a token when they are
          created. The public API, which the chat widget uses, needs none: the inbox and contact
          identifiers in its paths are the credentials.</p>
          ${demoNote(c)}
          <p>Errors share one shape, <code>{"error", "code", "details", "request_id"}</code>, with
          an HTTP status that says what went wrong (<a href="#schema-Error">Error</a>).</p>
        </section>
        <p id="status" role="status">Loading /openapi.json…</p>
      </main>
    </div>
  </body>
</html>
`;
};

/** GET /docs: the API reference, rendered in the browser by first-party code only. */
export const docsPage = async (c: Context<AppEnv>) =>
  c.html(await page(c), 200, {
    "Content-Security-Policy": DOCS_CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  });
