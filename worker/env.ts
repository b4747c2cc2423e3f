import type { AccountFeed } from "./realtime/account-feed";
import type { ConversationRoom } from "./realtime/conversation-room";

/** Bindings and vars of the Worker, as declared in wrangler.toml. */
export type Bindings = {
  DB: D1Database;
  ROOMS: DurableObjectNamespace<ConversationRoom>;
  FEEDS: DurableObjectNamespace<AccountFeed>;
  FILES: R2Bucket;
  /** Public API: requests per IP, per contact, and messages per contact (wrangler.toml). */
  PUBLIC_IP_LIMITER: RateLimit;
  PUBLIC_CONTACT_LIMITER: RateLimit;
  PUBLIC_MESSAGE_LIMITER: RateLimit;
  SERVICE_VERSION?: string;
  /** How long a typing indicator lives without renewal (ms); tests shorten it. */
  TYPING_TTL_MS?: string;
  PARLEY_ALLOW_LOOPBACK_WEBHOOKS?: string;
};
