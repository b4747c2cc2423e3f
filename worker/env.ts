import { createLogger } from "./lib/logger";
import { mailBaseUrl } from "./lib/public-url";

/**
 * What travels on the EVENTS queue: ids only, the consumer loads the rows. An outbox event is
 * fanned out into deliveries, and each delivery travels as its own message, so one slow or
 * dead receiver never holds up another's.
 */
export type QueueMessage = { kind: "event"; id: number } | { kind: "delivery"; id: number };

/**
 * What travels on the TIMED queue: one task of the schedule tick over a few conversations, each
 * as [id, event_seq] when the tick read it (modules/schedule/). `at` is the tick's clock.
 */
export type TimedMessage = {
  kind: "timed";
  task: "auto_resolve" | "wake";
  at: number;
  items: [number, number][];
};

/** The tick's assignment drain on the TIMED queue: a few inboxes with a waiting queue. */
export type DrainMessage = { kind: "timed"; task: "drain"; at: number; inboxes: number[] };

/**
 * The rest of an inbox's ended sessions to close after it switched hmac_mandatory on: the rooms
 * of conversations after `after` (modules/contacts/sessions.ts closes a page per message).
 */
export type CloseSessionsMessage = {
  kind: "timed";
  task: "close_sessions";
  at: number;
  inboxId: number;
  after: number;
};

/** Everything the TIMED queue carries. */
export type TimedQueueMessage = TimedMessage | DrainMessage | CloseSessionsMessage;

/** Bindings and vars of the Worker, as declared in wrangler.toml. */
export type Bindings = {
  DB: D1Database;
  /** ConversationRoom, one per conversation (modules/conversation-room/; stubs via roomFor). */
  ROOMS: DurableObjectNamespace;
  /** AccountFeed, one per account (realtime/account-feed.ts; stubs via feedFor). */
  FEEDS: DurableObjectNamespace;
  /** LogWriter, one per account: the rooms' logs to D1 (conversation-room/log-writer.ts). */
  WRITERS: DurableObjectNamespace;
  FILES: R2Bucket;
  /** The static assets (widget, demo, the agents' app under /app); absent in the unit tests. */
  ASSETS?: Fetcher;
  /** Automation email (wrangler.toml [[send_email]]); `wrangler dev` only logs what it sends. */
  EMAIL?: SendEmail;
  /** Outbox events and webhook deliveries (wrangler.toml [[queues]]). */
  EVENTS: Queue<QueueMessage>;
  /** Where deliveries that failed for good are parked. */
  EVENTS_DLQ: Queue<QueueMessage>;
  /** The schedule tick's fan-out: due conversations in small batches (modules/schedule/). */
  TIMED: Queue<TimedQueueMessage>;
  /** Public API: requests per IP, per contact, and messages per contact (wrangler.toml). */
  PUBLIC_IP_LIMITER: RateLimit;
  PUBLIC_CONTACT_LIMITER: RateLimit;
  PUBLIC_MESSAGE_LIMITER: RateLimit;
  /** Sign-in and password links: requests per IP and per email (wrangler.toml). */
  AUTH_IP_LIMITER: RateLimit;
  AUTH_EMAIL_LIMITER: RateLimit;
  /** Help-center article votes per IP (wrangler.toml). */
  HELP_FEEDBACK_LIMITER: RateLimit;
  SERVICE_VERSION?: string;
  /**
   * The service's public base URL (`https://chat.example.com`): the only base of mailed links
   * (a request's Host header is never used), and a host no portal may take as custom domain.
   * Unset or malformed, the service warns at startup and mails no link (docs/auth.md).
   */
  PUBLIC_URL?: string;
  /**
   * Hosts no portal may claim as custom domain besides the service's own, comma-separated;
   * `*.example.com` covers every name under example.com (docs/help-center.md).
   */
  RESERVED_DOMAINS?: string;
  /**
   * Seconds after its relay that an event whose listeners never ran is relayed again by the
   * cron's sweep (default 1800; 10 to 86,400; docs/webhooks.md).
   */
  OUTBOX_REDELIVER_SECONDS?: string;
  /** DNS-over-HTTPS JSON endpoint for domain verification; Cloudflare's when unset. */
  DOH_RESOLVER_URL?: string;
  /**
   * Sender of automation email, `Name <address>` (wrangler.toml [vars]). Cloudflare only sends
   * from a domain of the account; empty or malformed, automation logs and skips its email.
   */
  MAIL_FROM?: string;
  /** How long a typing indicator lives without renewal (ms); tests shorten it. */
  TYPING_TTL_MS?: string;
  /**
   * Frames a second a socket's frame budget refills, replacing every role's rate; tests set
   * "0" so whether a burst is limited never depends on how fast the frames arrive.
   */
  FRAME_REFILL_PER_SECOND?: string;
  /** How long after an agent's last feed socket closes they go offline (ms); tests shorten it. */
  PRESENCE_GRACE_MS?: string;
  /** "1" lets webhooks target loopback addresses (npm start; never in production). */
  PARLEY_ALLOW_LOOPBACK_WEBHOOKS?: string;
  /**
   * The local demo's account id and tokens (`npm start` sets it; never deployed), shown on the
   * front door and /docs to loopback requests: lib/demo.ts.
   */
  PARLEY_DEMO?: string;
  /** Retry delays in seconds, comma-separated, replacing the default schedule (benchmarks). */
  WEBHOOK_RETRY_SCHEDULE?: string;
  /** "1": the writer's D1 transactions and the consumer's batches are logged as spans (lib/spans.ts). */
  LOG_TIMINGS?: string;
};

/** What the configuration lacks, one sentence each (read once per isolate by `checkEnv`). */
export function envWarnings(env: Bindings): string[] {
  const warnings: string[] = [];
  if (mailBaseUrl(env.PUBLIC_URL) === null) {
    warnings.push(
      env.PUBLIC_URL
        ? "PUBLIC_URL is not an absolute http(s) URL: no invitation or password mail is sent"
        : "PUBLIC_URL is not set: no invitation or password mail is sent (set it to the service's public URL)",
    );
  }
  return warnings;
}

let checked = false;

/** Logs the configuration's problems on the isolate's first request, then never again. */
export function checkEnv(env: Bindings, log = createLogger({ source: "env" })): void {
  if (checked) {
    return;
  }
  checked = true;
  for (const warning of envWarnings(env)) {
    log.warn(warning);
  }
}
