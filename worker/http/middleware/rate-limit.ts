import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Bindings } from "../../env";
import { ApiError } from "../../lib/errors";
import { ErrorSchema } from "../errors";

/**
 * Every limiter is a Workers Rate Limiting binding (wrangler.toml `[[ratelimits]]`) with a
 * fixed 60-second window; the limits themselves live in wrangler.toml.
 */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

type LimiterName =
  | "PUBLIC_IP_LIMITER"
  | "PUBLIC_CONTACT_LIMITER"
  | "PUBLIC_MESSAGE_LIMITER"
  | "AUTH_IP_LIMITER"
  | "AUTH_EMAIL_LIMITER";

/**
 * The caller's address: CF-Connecting-IP, which Cloudflare's edge sets (overwriting whatever the
 * client sent). X-Forwarded-For is never read: any client can write it, so trusting it would let
 * a caller pick a fresh address per request and escape the per-address limit.
 */
export function clientIp(c: Context): string {
  return c.req.header("cf-connecting-ip")?.trim() || "unknown";
}

/**
 * Seconds until the current window ends. Windows are aligned to the clock (as the local
 * simulation counts them; at the edge the binding's own window is at most one period).
 */
export const retryAfterSeconds = (nowMs: number, period = RATE_LIMIT_PERIOD_SECONDS) =>
  period - (Math.floor(nowMs / 1000) % period);

/** Counts one request for `key`; over the limit → 429 rate_limited with Retry-After. */
export async function enforceLimit(
  env: Bindings,
  limiter: LimiterName,
  key: string,
  what: string,
): Promise<void> {
  const { success } = await env[limiter].limit({ key });
  if (!success) {
    throw new ApiError("rate_limited", `Too many requests ${what}, retry later`, [], {
      "Retry-After": String(retryAfterSeconds(Date.now())),
    });
  }
}

/** A middleware counting every request it sees against `limiter`, keyed by `keyOf`. */
export const rateLimit = (limiter: LimiterName, keyOf: (c: Context) => string, what: string) =>
  createMiddleware(async (c, next) => {
    await enforceLimit(c.env as Bindings, limiter, keyOf(c), what);
    await next();
  });

const contactKey = (c: Context) =>
  `${c.req.param("inbox_identifier") ?? ""}:${c.req.param("contact_identifier") ?? ""}`;

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
