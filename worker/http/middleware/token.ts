import type { Context } from "hono";

/**
 * Chatwoot clients send `api_access_token`; proxies that drop underscores force
 * `Api-Access-Token`. Browsers cannot set headers on a WebSocket, so an upgrade request may
 * carry the token as `?api_access_token=` instead (and only an upgrade request).
 */
export function readAccessToken(c: Context): string | undefined {
  let token = c.req.header("api_access_token") ?? c.req.header("api-access-token");
  if (token === undefined && c.req.header("upgrade")?.toLowerCase() === "websocket") {
    token = c.req.query("api_access_token");
  }
  const trimmed = token?.trim();
  return trimmed ? trimmed : undefined;
}
