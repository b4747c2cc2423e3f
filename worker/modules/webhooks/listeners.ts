import type { DeliveryTarget } from "../../db/schema";
import type { WebhookEventName } from "../../events/names";
import {
  type AsyncListener,
  type AsyncListenerContext,
  memoized,
  type OutboxEvent,
} from "../../events/outbox-types";
import { enqueueDeliveries } from "./dispatch";
import { bodyFor, type EventData, loadEventData } from "./payloads";
import { receiversOf } from "./queries";
import { type NewDelivery, writeDeliveries } from "./queries.deliveries";

/** One receiver of an event, and the event names it gets it under. */
type Target = { type: DeliveryTarget; id: number; url: string; names: string[] };

const CONTACT_EVENTS: readonly WebhookEventName[] = ["contact_created", "contact_updated"];

/** Chatwoot parity (AgentBotListener): what a bot attached to the inbox hears. */
const BOT_EVENTS: readonly WebhookEventName[] = [
  "message_created",
  "message_updated",
  "conversation_status_changed",
  "webwidget_triggered",
];

/** Chatwoot's bot-only events beside conversation_status_changed, by the new status. */
const STATUS_EVENTS: Record<string, string> = {
  open: "conversation_opened",
  resolved: "conversation_resolved",
};

/** Contact events belong to the account, the others to the inbox they happened in. */
const inboxOf = (event: OutboxEvent) =>
  CONTACT_EVENTS.includes(event.name) ? null : (event.payload.inbox_id ?? null);

/**
 * Both listeners need the same lookups for an event: the batch's memo makes them once (the
 * receivers once per batch and inbox).
 */
const receivers = (ctx: AsyncListenerContext, event: OutboxEvent) =>
  memoized(ctx, `receivers:${event.accountId}:${inboxOf(event)}`, () =>
    receiversOf(ctx.db, event.accountId, inboxOf(event)),
  );

const dataOf = (ctx: AsyncListenerContext, event: OutboxEvent) =>
  memoized<EventData | null>(ctx, `data:${event.id}`, () => loadEventData(ctx.db, event));

/**
 * Writes one delivery per receiver and event name (an event processed twice writes nothing new),
 * then queues the ones that never went out, one message each.
 */
async function fanOut(ctx: AsyncListenerContext, event: OutboxEvent, targets: Target[]) {
  if (targets.length === 0) {
    return;
  }
  const data = await dataOf(ctx, event);
  if (data === null) {
    return;
  }
  const at = ctx.now();
  const rows: NewDelivery[] = targets.flatMap((t) =>
    t.names.map((name) => ({
      accountId: event.accountId,
      targetType: t.type,
      targetId: t.id,
      eventId: event.id,
      event: name,
      deliveryId: crypto.randomUUID(),
      url: t.url,
      body: bodyFor(name, data),
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    })),
  );
  await enqueueDeliveries(ctx.env, await writeDeliveries(ctx.db, event.id, rows));
}

/**
 * Account webhooks subscribed to the event (limited to one inbox when they say so), and the
 * webhook_url of the API inbox it happened in (every conversation and message event, private
 * notes excepted: an API channel relays messages to the customer).
 */
export const webhookListener: AsyncListener = async (event, ctx) => {
  const { hooks, inbox } = await receivers(ctx, event);
  const targets: Target[] = hooks
    .filter((h) => h.subscriptions.includes(event.name))
    .map((h) => ({ type: "webhook", id: h.id, url: h.url, names: [event.name] }));
  const privateNote = event.name.startsWith("message_") && event.payload.is_private === true;
  if (inbox?.channelType === "Channel::Api" && inbox.webhookUrl && !privateNote) {
    targets.push({ type: "inbox", id: inbox.id, url: inbox.webhookUrl, names: [event.name] });
  }
  await fanOut(ctx, event, targets);
};

/** The agent bot attached to the event's inbox, at its outgoing_url. */
export const agentBotListener: AsyncListener = async (event, ctx) => {
  if (!BOT_EVENTS.includes(event.name)) {
    return;
  }
  const { bot } = await receivers(ctx, event);
  if (!bot?.outgoingUrl) {
    return;
  }
  const status = event.payload.changed_attributes?.status?.current_value;
  const extra = event.name === "conversation_status_changed" && STATUS_EVENTS[String(status)];
  const names = extra ? [event.name, extra] : [event.name];
  await fanOut(ctx, event, [{ type: "agent_bot", id: bot.id, url: bot.outgoingUrl, names }]);
};
