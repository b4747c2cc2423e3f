import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Bindings } from "../../env";
import {
  contactLimitKey,
  enforceLimit,
  type LimiterName,
  RATE_LIMIT_PERIOD_SECONDS,
  retryAfterSeconds,
} from "../../lib/limits";
import { ErrorSchema } from "../errors";

/**
 * The caller's address: CF-Connecting-IP, which Cloudflare's edge sets (overwriting whatever the
 * client sent). X-Forwarded-For is never read: any client can write it, so trusting it would let
 * a caller pick a fresh address per request and escape the per-address limit.
 */
export function clientIp(c: Context): string {
  return c.req.header("cf-connecting-ip")?.trim() || "unknown";
}

/** A middleware counting every request it sees against `limiter`, keyed by `keyOf`. */
export const rateLimit = (limiter: LimiterName, keyOf: (c: Context) => string, what: string) =>
  createMiddleware(async (c, next) => {
    await enforceLimit(c.env as Bindings, limiter, keyOf(c), what);
    await next();
  });

const contactKey = (c: Context) =>
  contactLimitKey(c.req.param("inbox_identifier") ?? "", c.req.param("contact_identifier") ?? "");

export { enforceLimit, RATE_LIMIT_PERIOD_SECONDS, retryAfterSeconds };

/** 600 requests a minute per address, across the public API. */
export const publicIpLimit = rateLimit(
  "PUBLIC_IP_LIMITER",
  (c) => `ip:${clientIp(c)}`,
  "from this address",
);

/** 120 requests a minute per contact (inbox + source_id). */
export const publicContactLimit = rateLimit(
  "PUBLIC_CONTACT_LIMITER",
  contactKey,
  "for this contact",
);

/** 30 new messages a minute per contact. */
export const publicMessageLimit = rateLimit(
  "PUBLIC_MESSAGE_LIMITER",
  contactKey,
  "creating messages for this contact",
);

/** The 429 every rate-limited route declares, so the OpenAPI document lists it. */
export const rateLimitResponses = {
  429: {
    description: "Rate limited; Retry-After says how many seconds to wait",
    headers: { "Retry-After": { schema: { type: "integer" as const } } },
    content: { "application/json": { schema: ErrorSchema } },
  },
} as const;
