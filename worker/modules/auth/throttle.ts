import { createDb } from "../../db/client";
import type { Bindings } from "../../env";
import type { Deps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { enforceLimit } from "../../lib/limits";
import { clearFailures, failureSpread, insertFailure, pruneFailures } from "./queries.throttle";

/**
 * Password guessing is throttled without letting anyone lock a named user out (docs/auth.md
 * "Sign-in throttling"). Every check of a password (sign-in, a profile's current_password)
 * counts against:
 * - the caller's address: 30 a minute (AUTH_IP_LIMITER);
 * - the email from that address: 10 a minute (AUTH_EMAIL_LIMITER keyed by both), so failing a
 *   victim's email from one address only slows that address;
 * - the email across addresses, on failures only: once an email failed from SPREAD_ADDRESSES
 *   or more addresses within WINDOW_SECONDS (a guess spread over many addresses), an address
 *   that itself failed FAILURES_PER_ADDRESS times for it in the window is refused before the
 *   password is checked. An address without failures is still checked, so the right password
 *   from the user's own address goes through; a right password forgives its address.
 */
export const THROTTLE = {
  WINDOW_SECONDS: 15 * 60,
  SPREAD_ADDRESSES: 3,
  FAILURES_PER_ADDRESS: 2,
} as const;

export type Attempt = { email: string; ip: string };

const keyOf = (email: string) => email.trim().toLowerCase();

/** Before a password is checked: 429 when a limit says this attempt must not be made. */
export async function admitAttempt(deps: Deps, env: Bindings, attempt: Attempt): Promise<void> {
  const email = keyOf(attempt.email);
  await enforceLimit(env, "AUTH_IP_LIMITER", `ip:${attempt.ip}`, "from this address");
  await enforceLimit(
    env,
    "AUTH_EMAIL_LIMITER",
    `password:${email}|ip:${attempt.ip}`,
    "for this email from this address",
  );
  const now = deps.now();
  const spread = await failureSpread(deps.db, email, attempt.ip, now - THROTTLE.WINDOW_SECONDS);
  if (
    spread.addresses >= THROTTLE.SPREAD_ADDRESSES &&
    spread.here >= THROTTLE.FAILURES_PER_ADDRESS
  ) {
    const until = (spread.oldestHere ?? now) + THROTTLE.WINDOW_SECONDS;
    throw new ApiError(
      "rate_limited",
      "Too many failed attempts for this email from this address, retry later",
      [],
      { "Retry-After": String(Math.max(1, until - now)) },
    );
  }
}

/** After the check: a failure is remembered, a success forgives its address. */
export async function settleAttempt(deps: Deps, attempt: Attempt, ok: boolean): Promise<void> {
  const email = keyOf(attempt.email);
  await (ok
    ? clearFailures(deps.db, email, attempt.ip)
    : insertFailure(deps.db, email, attempt.ip, deps.now()));
}

/**
 * Checks a password through the throttle: `check` resolves true for the right password (or
 * throws its own error, counted as a failure).
 */
export async function throttled<T>(
  deps: Deps,
  env: Bindings,
  attempt: Attempt,
  check: () => Promise<T>,
): Promise<T> {
  await admitAttempt(deps, env, attempt);
  try {
    const result = await check();
    await settleAttempt(deps, attempt, true);
    return result;
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) {
      await settleAttempt(deps, attempt, false);
    }
    throw err;
  }
}

/** The cron sweep's task: failures older than the window are forgotten. */
export const pruneSignInFailures = (env: Bindings, now: number) =>
  pruneFailures(createDb(env.DB), now - THROTTLE.WINDOW_SECONDS);
