import type { Context } from "hono";

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

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Parley API reference</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/api-docs.css" />
    <script src="/api-docs.js" defer></script>
  </head>
  <body>
    <header>
      <h1 id="title">Parley API</h1>
      <p>
        Generated from <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).
        <label for="filter">Filter</label>
        <input id="filter" type="search" placeholder="method, path or words" autocomplete="off" />
      </p>
    </header>
    <main id="reference">
      <p id="status" role="status">Loading /openapi.json…</p>
    </main>
  </body>
</html>
`;

/** GET /docs: the API reference, rendered in the browser by first-party code only. */
export const docsPage = (c: Context) =>
  c.html(PAGE, 200, {
    "Content-Security-Policy": DOCS_CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  });
