import "./wiring";
import { createApp } from "./app";
import { type Bindings, checkEnv } from "./env";
import { consumeBatch } from "./events/consumer";
import type { QueueMessage } from "./events/queue-messages";
import { sweep } from "./events/sweep";

export { ConversationRoom } from "./modules/messages/room";
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
    await consumeBatch(batch, env);
  },
  async scheduled(_controller, env) {
    await sweep(env);
  },
} satisfies ExportedHandler<Bindings, QueueMessage>;
