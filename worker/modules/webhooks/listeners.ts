import type { DeliveryTarget } from "../../db/schema";
import type { WebhookEventName } from "../../events/names";
import {
  type AsyncListener,
  type AsyncListenerContext,
  memoized,
  type OutboxEvent,
} from "../../events/outbox-types";
import { enqueueDeliveries } from "./dispatch";
import { bodyFor, type EventData, loadEventData, type WebhookAudience } from "./payloads";
import { receiversOf } from "./queries";
import { type NewDelivery, writeDeliveries } from "./queries.deliveries";

/**
 * One receiver of an event, the event names it gets it under, and whose side it is on: an API
 * inbox's webhook_url relays to the customer (the contact's audience); account webhooks and
 * agent bots are the agents' own (private notes included, as in Chatwoot).
 */
type Target = {
  type: DeliveryTarget;
  id: number;
  url: string;
  names: string[];
  audience: WebhookAudience;
};

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

const dataOf = (ctx: AsyncListenerContext, event: OutboxEvent, audience: WebhookAudience) =>
  memoized<EventData | null>(ctx, `data:${event.id}:${audience}`, () =>
    loadEventData(ctx, event, audience),
  );

/**
 * Writes one delivery per receiver and event name (an event processed twice writes nothing new),
 * then queues the ones that never went out, one message each. Each receiver's body is its
 * audience's variant of the record: none when the record is not for that audience.
 */
async function fanOut(ctx: AsyncListenerContext, event: OutboxEvent, targets: Target[]) {
  const at = ctx.now();
  const audiences = [...new Set(targets.map((t) => t.audience))];
  const loaded = await Promise.all(audiences.map((a) => dataOf(ctx, event, a)));
  const rows: NewDelivery[] = [];
  for (const t of targets) {
    const data = loaded[audiences.indexOf(t.audience)];
    if (!data) {
      continue;
    }
    for (const name of t.names) {
      rows.push({
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
      });
    }
  }
  if (rows.length === 0) {
    return;
  }
  await enqueueDeliveries(ctx.env, await writeDeliveries(ctx.db, event.id, rows));
}

/**
 * Account webhooks subscribed to the event (limited to one inbox when they say so), and the
 * webhook_url of the API inbox it happened in (every conversation and message event, as the
 * contact may see it: an API channel relays messages to the customer, so no private note).
 */
export const webhookListener: AsyncListener = async (event, ctx) => {
  const { hooks, inbox } = await receivers(ctx, event);
  const targets: Target[] = hooks
    .filter((h) => h.subscriptions.includes(event.name))
    .map((h) => ({
      type: "webhook",
      id: h.id,
      url: h.url,
      names: [event.name],
      audience: "agents",
    }));
  if (inbox?.channelType === "Channel::Api" && inbox.webhookUrl) {
    const names = [event.name];
    targets.push({
      type: "inbox",
      id: inbox.id,
      url: inbox.webhookUrl,
      names,
      audience: "contact",
    });
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
  const target: Target = {
    type: "agent_bot",
    id: bot.id,
    url: bot.outgoingUrl,
    names,
    audience: "agents",
  };
  await fanOut(ctx, event, [target]);
};
