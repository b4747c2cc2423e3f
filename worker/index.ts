import "./wiring";
import { createApp } from "./app";
import { type Bindings, checkEnv, type TimedQueueMessage } from "./env";
import { consumeBatch } from "./events/consumer";
import type { QueueMessage } from "./events/queue-messages";
import { sweep } from "./events/sweep";
import { consumeTimed } from "./modules/schedule/consumer";

export { LogWriter } from "./modules/conversation-room/log-writer";
/** The Durable Object bound as ROOMS: a conversation's room (modules/conversation-room/). */
export { MessageRoom as ConversationRoom } from "./modules/conversation-room/room";
export { AccountFeed } from "./realtime/account-feed";

const app = createApp();

/** Trailing slashes route like their slash-less paths (Rails does the same). */
function withoutTrailingSlash(request: Request): Request {
  const url = new URL(request.url);
  if (url.pathname.length > 1 && url.pathname.endsWith("/")) {
    url.pathname = url.pathname.replace(/\/+$/, "") || "/";
    return new Request(url, request);
  }
  return request;
}

export default {
  fetch(request, env, ctx) {
    checkEnv(env);
    return app.fetch(withoutTrailingSlash(request), env, ctx);
  },
  async queue(batch, env) {
    // Two queues reach this consumer: the schedule's fan-out (TIMED) and the events.
    if (batch.messages.every((m) => m.body.kind === "timed")) {
      await consumeTimed(batch as MessageBatch<TimedQueueMessage>, env);
    } else {
      await consumeBatch(batch as MessageBatch<QueueMessage>, env);
    }
  },
  async scheduled(_controller, env) {
    await sweep(env);
  },
} satisfies ExportedHandler<Bindings, QueueMessage | TimedQueueMessage>;
