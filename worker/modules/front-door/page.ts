import { html, raw } from "hono/html";
import type { DemoFacts } from "../../lib/demo";

/** The front door's policy: no script at all, its one inline stylesheet, images from here. */
export const FRONT_DOOR_CSP =
  // connect-src: nothing here fetches, but Lighthouse reads /robots.txt from the page itself.
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// Inline (one request for the whole page); light and dark follow the visitor's setting.
const STYLE = `:root{--bg:#f6f7f9;--card:#fff;--fg:#1c2024;--mu:#545b66;--bd:#dfe2e7;--ac:#1a5fd0;--code:#eef0f3;color-scheme:light dark}
@media(prefers-color-scheme:dark){:root{--bg:#101214;--card:#1a1d21;--fg:#eceef1;--mu:#a9b0ba;--bd:#2e3339;--ac:#7fb0ff;--code:#24282e}}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
.w{max-width:56rem;margin:0 auto;padding:0 1.25rem}header{padding:1.25rem 0}header .w{display:flex;align-items:center;justify-content:space-between;gap:1rem}
.brand{display:flex;align-items:center;gap:.6rem;font-weight:700;font-size:1.15rem;color:inherit;text-decoration:none}.ver{color:var(--mu);font-size:.9rem}
h1{font-size:clamp(1.8rem,5vw,2.6rem);line-height:1.15;margin:1.5rem 0 .75rem;letter-spacing:-.01em}.lede{font-size:1.15rem;color:var(--mu);max-width:40rem;margin:0 0 2rem}
.cards{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(19rem,1fr));list-style:none;padding:0;margin:0}
.cards a{display:block;height:100%;padding:1.1rem 1.2rem;background:var(--card);border:1px solid var(--bd);border-radius:12px;color:inherit;text-decoration:none}
.cards a:hover,.cards a:focus-visible{border-color:var(--ac);box-shadow:0 0 0 1px var(--ac)}.cards strong{display:block;color:var(--ac);font-size:1.05rem;margin-bottom:.25rem}
.cards span{color:var(--mu);font-size:.95rem}h2{font-size:1.25rem;margin:2.5rem 0 .75rem}a{color:var(--ac)}
ul.hc{padding-left:1.2rem}code,pre{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace}code{background:var(--code);padding:.1em .35em;border-radius:4px}
pre{background:var(--code);padding:1rem;border-radius:8px;overflow:auto;white-space:pre-wrap;word-break:break-all}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:0 0 1rem}dt{color:var(--mu)}dd{margin:0;overflow-wrap:anywhere}
.demo{background:var(--card);border:1px solid var(--bd);border-radius:12px;padding:.25rem 1.2rem 1rem;margin-top:2.5rem}.demo h2{margin-top:1rem}
footer{color:var(--mu);font-size:.9rem;padding:2.5rem 0 2rem}
@media(max-width:30rem){dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.5rem}}`;

export type FrontDoor = {
  version: string;
  base: string;
  demo: DemoFacts | null;
  portals: { name: string; slug: string }[];
};

const card = (href: string, title: string, text: string) =>
  html`<li><a href="${href}"><strong>${title}</strong><span>${text}</span></a></li>`;

function helpCenters(view: FrontDoor) {
  if (view.portals.length > 0) {
    return html`<ul class="hc">${view.portals.map(
      (p) => html`<li><a href="/hc/${encodeURIComponent(p.slug)}">${p.name}</a></li>`,
    )}</ul>`;
  }
  return html`<p>Each account's help center is a public site at <code>/hc/{portal_slug}</code>, or
on its own domain. Create one in the agents' app, or with
<code>POST /api/v1/accounts/{account_id}/portals</code>.</p>`;
}

function demoBox(base: string, demo: DemoFacts) {
  return html`<section class="demo" aria-labelledby="demo-h">
<h2 id="demo-h">This is the local demo</h2>
<p><code>npm start</code> seeded an account to try things with (its admin is
<strong>admin@demo.parley.local</strong>). Call the API with one of its tokens:</p>
<dl>
<dt>Account id</dt><dd><code>${demo.account}</code></dd>
<dt>Admin token</dt><dd><code>${demo.admin}</code></dd>
<dt>Agent token</dt><dd><code>${demo.agent}</code></dd>
${demo.widget ? html`<dt>Widget inbox</dt><dd><code>${demo.widget}</code></dd>` : ""}
</dl>
<pre>curl -H 'api_access_token: ${demo.admin}' ${base}/api/v1/accounts/${demo.account}/conversations</pre>
</section>`;
}

/** GET / for a browser: what this server is and where to go from here. */
export const frontDoorPage = (view: FrontDoor) => {
  const demoHref = view.demo?.widget
    ? `/demo?inbox=${encodeURIComponent(view.demo.widget)}`
    : "/demo";
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Parley</title>
<meta name="description" content="Parley: customer conversations — a chat widget, a shared inbox, help centers and a Chatwoot-compatible API." />
<link rel="icon" href="/parley-icon.svg" type="image/svg+xml" />
<style>${raw(STYLE)}</style>
</head>
<body>
<header><div class="w"><a class="brand" href="/"><img src="/parley-icon.svg" alt="" width="28" height="28" />Parley</a><span class="ver">version ${view.version}</span></div></header>
<main class="w">
<h1>Customer conversations, served from the edge</h1>
<p class="lede">This server runs Parley: a chat widget for any website, a shared inbox for your
agents, public help centers and an API that Chatwoot clients already speak.</p>
<ul class="cards">
${card("/app", "Agents' app", "Sign in, answer conversations and run your team's inbox.")}
${card(demoHref, "Widget demo", "A sample store page with the chat widget embedded in one tag.")}
${card("/docs", "API reference", "Every endpoint with its fields, an example request and its response.")}
${card("/openapi.json", "OpenAPI 3.1", "The machine-readable description, for client generators.")}
</ul>
<h2>Help centers</h2>
${helpCenters(view)}
${view.demo ? demoBox(view.base, view.demo) : ""}
</main>
<footer><div class="w">Parley ${view.version}. API clients get this page as JSON: send
<code>Accept: application/json</code>.</div></footer>
</body>
</html>`;
};
