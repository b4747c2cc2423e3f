/** Standard Webhooks' schedule: the waits before attempts 2 to 8, in seconds. */
export const DEFAULT_SCHEDULE = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];

/** Queues delay a message by 12 hours at most. */
export const MAX_DELAY = 12 * 3600;

/** The consumer's max_retries (wrangler.toml) bounds how many retries a message can take. */
const MAX_RETRIES = 10;

/**
 * The retry waits: WEBHOOK_RETRY_SCHEDULE ("1,2,5", seconds) replaces the whole schedule, for
 * benchmarks and local trials; production uses the default.
 */
export function retrySchedule(raw: string | undefined): number[] {
  const custom = (raw ?? "")
    .split(",")
    .filter((s) => s.trim() !== "")
    .map(Number)
    .filter((n) => Number.isFinite(n) && n >= 0);
  return (custom.length > 0 ? custom : DEFAULT_SCHEDULE).slice(0, MAX_RETRIES - 1);
}

/** Retry-After as seconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, nowMs: number): number | null {
  if (!value) {
    return null;
  }
  if (/^\d+$/.test(value.trim())) {
    return Number(value.trim());
  }
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/**
 * The wait before the next attempt after `attempts` failed ones, or null when none is left.
 * Up to 10% jitter spreads retries of one outage; a longer Retry-After wins.
 */
export function nextDelay(
  schedule: number[],
  attempts: number,
  retryAfter: number | null,
  random = Math.random,
): number | null {
  const base = schedule[attempts - 1];
  if (base === undefined) {
    return null;
  }
  const jittered = Math.round(base * (1 + 0.1 * random()));
  return Math.min(MAX_DELAY, Math.max(jittered, retryAfter ?? 0));
}

/** Network errors, timeouts, 408, 429 and 5xx are worth another try; other answers are not. */
export const isRetryable = (status: number | null) =>
  status === null || status === 408 || status === 429 || status >= 500;
