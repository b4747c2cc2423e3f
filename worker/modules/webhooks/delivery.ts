import type { Db } from "../../db/client";
import type { DeliveryRow, DeliveryStatus } from "../../db/schema";
import type { Bindings } from "../../env";
import type { Outbound } from "../../lib/outbound";
import { loopbackAllowed, publicUrlProblem } from "../../lib/public-url";
import { checkResolvedHost } from "../../lib/resolve-host";
import { handOffAfterBotFailure } from "./bot-handoff";
import { disableWebhook } from "./queries";
import { type Claimed, claimDelivery, recordAttempt } from "./queries.deliveries";
import { isRetryable, nextDelay, retryAfterSeconds, retrySchedule } from "./retry";
import { deliveryHeaders } from "./signing";

export type DeliveryContext = {
  env: Bindings;
  db: Db;
  outbound: Outbound;
  now: () => number;
  /** Per-attempt timeout; 10 s unless a test shortens it. */
  timeoutMs?: number;
};

/** What the queue should do with the delivery's message. */
export type AttemptOutcome =
  | { kind: "done"; status: DeliveryStatus }
  | { kind: "retry"; delaySeconds: number }
  | { kind: "skipped" };

const TIMEOUT_MS = 10_000;
/** A claimed delivery is held this long (well past the timeout) before anyone may retake it. */
const LEASE_SECONDS = 60;
/** A retry message may arrive a little before its delivery's next_attempt_at. */
const EARLY_SECONDS = 5;

type Target = { secret: string | null; problem: string | null; webhookId: number | null };

/** The receiver's current secret, or why it can no longer receive. */
function targetOf({ row, webhook, inbox, bot }: Claimed): Target {
  const gone = (what: string): Target => ({
    secret: null,
    problem: `${what} no longer exists`,
    webhookId: null,
  });
  switch (row.targetType) {
    case "webhook":
      if (!webhook) {
        return gone("webhook");
      }
      return {
        secret: webhook.secret,
        problem: webhook.disabledAt === null ? null : "webhook disabled (410 Gone)",
        webhookId: webhook.id,
      };
    case "inbox":
      return inbox ? { secret: inbox.hmacToken, problem: null, webhookId: null } : gone("inbox");
    case "agent_bot":
      return bot ? { secret: bot.secret, problem: null, webhookId: null } : gone("agent bot");
    default:
      return { secret: null, problem: null, webhookId: null };
  }
}

type Sent = {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  retryAfter: string | null;
};

/** One POST: signed now, 10 s at most, redirects returned (not followed). */
async function send(ctx: DeliveryContext, row: DeliveryRow, secret: string | null): Promise<Sent> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = await deliveryHeaders(secret, row.deliveryId, timestamp, row.body);
  const started = Date.now();
  try {
    const res = await ctx.outbound(
      new Request(row.url, {
        method: "POST",
        headers,
        body: row.body,
        redirect: "manual",
        signal: AbortSignal.timeout(ctx.timeoutMs ?? TIMEOUT_MS),
      }),
    );
    await res.body?.cancel();
    const ok = res.status >= 200 && res.status < 300;
    const redirect = res.status === 0 || (res.status >= 300 && res.status < 400);
    return {
      statusCode: res.status,
      error: ok
        ? null
        : redirect
          ? `HTTP ${res.status}: redirect not followed`
          : `HTTP ${res.status}`,
      latencyMs: Date.now() - started,
      retryAfter: res.headers.get("retry-after"),
    };
  } catch (err) {
    const name = (err as Error)?.name;
    const error =
      name === "TimeoutError" || name === "AbortError"
        ? `timed out after ${(ctx.timeoutMs ?? TIMEOUT_MS) / 1000} s`
        : `network error: ${String((err as Error)?.message ?? err)}`;
    return { statusCode: null, error, latencyMs: Date.now() - started, retryAfter: null };
  }
}

/** Parks a delivery that failed for good on the dead-letter queue; its log row stays replayable. */
async function toDeadLetter(ctx: DeliveryContext, id: number) {
  await ctx.env.EVENTS_DLQ.send({ kind: "delivery", id }).catch(() => {
    // The delivery log already says "failed"; the DLQ is a second record, not the only one.
  });
}

const notSent = (error: string, final: boolean) => ({
  sent: { statusCode: null, error, latencyMs: 0, retryAfter: null },
  final,
});

/**
 * Why the attempt makes no request, or null to send: the target is gone or disabled, the URL is
 * refused, or its host name resolves to a private address (all final: failed at once); or the
 * name could not be resolved (not final: retried on the schedule like a network error, so a
 * resolver outage delays deliveries rather than failing them or sending unchecked).
 */
async function holdBack(
  ctx: DeliveryContext,
  url: string,
  target: Target,
): Promise<{ sent: Sent; final: boolean } | null> {
  if (target.problem) {
    return notSent(target.problem, true);
  }
  const allowLoopback = loopbackAllowed(ctx.env);
  const refused = publicUrlProblem(url, allowLoopback);
  if (refused) {
    return notSent(`url ${refused}`, true);
  }
  const host = await checkResolvedHost(ctx.outbound, url, allowLoopback);
  if (host.kind === "refused") {
    return notSent(`url ${host.problem}`, true);
  }
  return host.kind === "unresolved" ? notSent(host.error, false) : null;
}

/**
 * One attempt of one delivery, logged on its row. 2xx succeeds; network errors, timeouts, 408,
 * 429 and 5xx are retried on the schedule (Retry-After honoured) until it runs out; 410 disables
 * the webhook; anything else (redirects included) fails at once. A URL that became private, or
 * whose host name resolves to a private address, is refused without a request (failed at once);
 * when the name cannot be resolved the attempt is not made and is retried on the schedule. A bot
 * that failed for good hands its pending conversation to humans.
 */
export async function attemptDelivery(ctx: DeliveryContext, id: number): Promise<AttemptOutcome> {
  const now = ctx.now();
  const claimed = await claimDelivery(ctx.db, id, now + EARLY_SECONDS, now + LEASE_SECONDS);
  if (!claimed) {
    return { kind: "skipped" };
  }
  const { row } = claimed;
  const target = targetOf(claimed);
  const held = await holdBack(ctx, row.url, target);
  const sent = held?.sent ?? (await send(ctx, row, target.secret));
  const attempts = row.attempts + 1;
  const ok = sent.statusCode !== null && sent.statusCode >= 200 && sent.statusCode < 300;
  const delay =
    ok || held?.final || !isRetryable(sent.statusCode)
      ? null
      : nextDelay(
          retrySchedule(ctx.env.WEBHOOK_RETRY_SCHEDULE),
          attempts,
          retryAfterSeconds(sent.retryAfter, Date.now()),
        );
  const status: DeliveryStatus = ok ? "succeeded" : delay === null ? "failed" : "retrying";
  const at = ctx.now();
  await recordAttempt(ctx.db, row.id, {
    at,
    statusCode: sent.statusCode,
    latencyMs: sent.latencyMs,
    error: sent.error,
    status,
    nextAttemptAt: delay === null ? null : at + delay,
  });
  if (sent.statusCode === 410 && target.webhookId !== null) {
    await disableWebhook(ctx.db, target.webhookId, at);
  }
  if (status === "failed") {
    await toDeadLetter(ctx, row.id);
    if (row.targetType === "agent_bot") {
      await handOffAfterBotFailure(ctx, row);
    }
  }
  return delay === null ? { kind: "done", status } : { kind: "retry", delaySeconds: delay };
}
