/**
 * The one list of domain events (Chatwoot's names, dotted). `outbox`: the event is committed as
 * an outbox row with its change and reaches the queue handlers (webhooks, automation, agent
 * bots) under its webhook name; the others only become live frames after the commit.
 */
export const EVENTS = {
  "conversation.created": { outbox: true },
  "conversation.status_changed": { outbox: true },
  "conversation.updated": { outbox: true },
  "message.created": { outbox: true },
  "message.updated": { outbox: true },
  "contact.created": { outbox: true },
  "contact.updated": { outbox: true },
  "webwidget.triggered": { outbox: true },
  "conversation.typing_on": { outbox: true },
  "conversation.typing_off": { outbox: true },
  "conversation.read": { outbox: false },
  "assignee.changed": { outbox: false },
  "team.changed": { outbox: false },
  /** Someone lost access (a token, a membership, a role, the account or inbox): sockets close. */
  "access.revoked": { outbox: false },
} as const satisfies Record<string, { outbox: boolean }>;

export type EventName = keyof typeof EVENTS;

type OutboxName = {
  [K in EventName]: (typeof EVENTS)[K]["outbox"] extends true ? K : never;
}[EventName];

type Snake<S extends string> = S extends `${infer A}.${infer B}` ? `${A}_${B}` : S;

/** An outbox event's webhook name (Chatwoot's `event` value): the dotted name in snake form. */
export type WebhookEventName = Snake<OutboxName>;

export const webhookName = <K extends OutboxName>(name: K) => name.replace(".", "_") as Snake<K>;

const OUTBOX_NAMES = (Object.keys(EVENTS) as EventName[]).filter(
  (name): name is OutboxName => EVENTS[name].outbox,
);

/** Every webhook event name, in the order of the list above (webhook subscriptions use these). */
export const WEBHOOK_EVENTS = OUTBOX_NAMES.map(webhookName) as [
  WebhookEventName,
  ...WebhookEventName[],
];

export const isOutboxEvent = (name: EventName): name is OutboxName => EVENTS[name].outbox;
