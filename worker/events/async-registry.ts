import { agentBotListener, webhookListener } from "../modules/webhooks/listeners";
import { automationListener } from "./listeners/automation";
import type { AsyncListener } from "./outbox-types";

/** The queue consumer's listeners, run once (at least once) per outbox event, in this order. */
export const ASYNC_LISTENERS: readonly AsyncListener[] = [
  automationListener,
  webhookListener,
  agentBotListener,
];
