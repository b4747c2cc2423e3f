import type { Context } from "hono";
import type { AppEnv } from "./context";

/**
 * What the app may frame: the account's dashboard apps (docs/agent-tools.md), any https page or
 * one on the developer's own machine, as their API accepts. The shell is the same page for every
 * account and is served before anyone signs in, so it cannot name one account's origins without
 * telling them to anyone; the app's own script alone makes frames (no inline script, text only
 * in the DOM), each sandboxed and sent its context for the app's origin only.
 */
export const APP_FRAME_SRC = "frame-src https: http://localhost:* http://127.0.0.1:*";

/**
 * The agents' app (dashboard/, built into the static assets under /app): its script and styles
 * come from this origin only, its sockets and API calls too; nothing inline, never framed.
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self'",
  APP_FRAME_SRC,
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const HEADERS = {
  "Content-Security-Policy": APP_CSP,
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  // The HTML names the hashed bundles: always revalidated, so a deploy is picked up at once.
  "Cache-Control": "no-cache",
} as const;

/**
 * Every page of the app is its one index.html (a single-page app), so a deep link such as
 * /app/accounts/1/conversations/7 survives a reload. Its hashed bundles under /app/assets/ are
 * served by the static assets directly (wrangler.toml run_worker_first excludes them).
 */
export async function appShell(c: Context<AppEnv>) {
  const assets = c.env.ASSETS;
  if (!assets) {
    return c.notFound();
  }
  const page = await assets.fetch(new URL("/app/", c.req.url));
  if (!page.ok) {
    return c.notFound();
  }
  return new Response(page.body, {
    status: 200,
    headers: { "Content-Type": "text/html; charset=utf-8", ...HEADERS },
  });
}
