import type { Context } from "hono";

/** Chatwoot clients send `api_access_token`; proxies that drop underscores force `Api-Access-Token`. */
export function readAccessToken(c: Context): string | undefined {
  const token = c.req.header("api_access_token") ?? c.req.header("api-access-token");
  const trimmed = token?.trim();
  return trimmed ? trimmed : undefined;
}
