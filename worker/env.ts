import type { ConversationRoom } from "./realtime/conversation-room";

/** Bindings and vars of the Worker, as declared in wrangler.toml. */
export type Bindings = {
  DB: D1Database;
  ROOMS: DurableObjectNamespace<ConversationRoom>;
  FILES: R2Bucket;
  SERVICE_VERSION?: string;
  PARLEY_ALLOW_LOOPBACK_WEBHOOKS?: string;
};
