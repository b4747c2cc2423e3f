import { RATE_LIMIT_PERIOD_SECONDS, retryAfterSeconds } from "../../worker/lib/limits";

const windowOf = (nowMs: number) => Math.floor(nowMs / 1000 / RATE_LIMIT_PERIOD_SECONDS);

/**
 * Runs `attempt` inside one rate-limit window. The limits count in fixed windows aligned to the
 * clock (worker/lib/limits.ts, as the local simulation counts them), so a test that fills a
 * limit and expects the next request refused must not straddle a window's end:
 * - it starts in a fresh window when fewer than `seconds` of the current one are left;
 * - when an attempt failed AND straddled a window's end anyway (a loaded machine), the failure
 *   proves nothing, so it runs again (at most twice more). `attempt` must make its own fresh
 *   keys (contact, address, email) each time. A failure inside one window is reported as is.
 */
export async function inOneWindow<T>(seconds: number, attempt: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    const left = retryAfterSeconds(Date.now());
    if (left < seconds) {
      // A little past the edge: the limiter's clock is read in another object.
      await new Promise((resolve) => setTimeout(resolve, left * 1000 + 250));
    }
    const started = windowOf(Date.now());
    try {
      return await attempt();
    } catch (err) {
      if (windowOf(Date.now()) === started || run === 3) {
        throw err;
      }
      console.warn(`inOneWindow: attempt ${run} straddled a rate-limit window; running it again`);
    }
  }
}
