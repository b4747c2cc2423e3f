import type { Context } from "hono";
import { ApiError } from "../../lib/errors";
import { offeredProtocols, SOCKET_PROTOCOL } from "../../realtime/protocol";

/** A browser offers its token as a subprotocol beside "parley" (docs/realtime.md). */
const TOKEN_PROTOCOL = "access_token.";

/**
 * A token offered as a subprotocol. It must come with "parley": the server has to echo one
 * offered value, and the token must never be the one echoed.
 */
function protocolToken(headers: Headers): string | undefined {
  const offered = offeredProtocols(headers);
  const token = offered.find((p) => p.startsWith(TOKEN_PROTOCOL))?.slice(TOKEN_PROTOCOL.length);
  if (token !== undefined && !offered.includes(SOCKET_PROTOCOL)) {
    throw new ApiError(
      "bad_request",
      `Offer the "${SOCKET_PROTOCOL}" subprotocol with the access_token one`,
    );
  }
  return token;
}

/**
 * Chatwoot clients send `api_access_token`; proxies that drop underscores force
 * `Api-Access-Token`. An upgrade request may carry it in `Sec-WebSocket-Protocol` (browsers),
 * or, discouraged because URLs end up in logs, as `?api_access_token=`.
 */
export function readAccessToken(c: Context): string | undefined {
  let token = c.req.header("api_access_token") ?? c.req.header("api-access-token");
  if (token === undefined && c.req.header("upgrade")?.toLowerCase() === "websocket") {
    token = protocolToken(c.req.raw.headers) ?? c.req.query("api_access_token");
  }
  const trimmed = token?.trim();
  return trimmed ? trimmed : undefined;
}
