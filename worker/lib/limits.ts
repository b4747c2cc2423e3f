import type { Bindings } from "../env";
import { ApiError } from "./errors";

/**
 * Every limiter is a Workers Rate Limiting binding (wrangler.toml `[[ratelimits]]`) with a
 * fixed 60-second window; the limits themselves live in wrangler.toml. HTTP routes count
 * through the middlewares of http/middleware/rate-limit.ts, sockets through the room.
 */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

export type LimiterName =
  | "PUBLIC_IP_LIMITER"
  | "PUBLIC_CONTACT_LIMITER"
  | "PUBLIC_MESSAGE_LIMITER"
  | "AUTH_IP_LIMITER"
  | "AUTH_EMAIL_LIMITER"
  | "HELP_FEEDBACK_LIMITER";

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

/** The public API's key for one contact of one inbox (its identifier and source_id). */
export const contactLimitKey = (inboxIdentifier: string, sourceId: string) =>
  `${inboxIdentifier}:${sourceId}`;
