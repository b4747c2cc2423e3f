import type { Db } from "../db/client";
import type { Bindings } from "../env";
import type { Outbound } from "../lib/outbound";
import type { Typer } from "./types";

/** The webhook event names of the spec (Chatwoot's), the only names outbox rows carry. */
export const WEBHOOK_EVENTS = [
  "conversation_created",
  "conversation_status_changed",
  "conversation_updated",
  "message_created",
  "message_updated",
  "contact_created",
  "contact_updated",
  "webwidget_triggered",
  "conversation_typing_on",
  "conversation_typing_off",
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** Who caused an event; automation ignores events its own rules caused (no loops). */
export type PerformedBy = {
  type: "user" | "agent_bot" | "contact" | "automation_rule" | "system";
  id: number | null;
};

/** What an outbox row carries: ids to load at delivery time, plus what only the moment knew. */
export type OutboxPayload = {
  conversation_id?: number;
  message_id?: number;
  contact_id?: number;
  inbox_id?: number;
  /** webwidget_triggered: the visitor's contact_inbox. */
  contact_inbox_id?: number;
  changed_attributes?: Record<string, { previous_value: unknown; current_value: unknown }>;
  performed_by?: PerformedBy;
  typer?: Typer;
  is_private?: boolean;
  event_info?: Record<string, unknown>;
  /** The request's origin, so file URLs in the payload are absolute. */
  origin?: string;
};

/** An outbox row as the queue consumer hands it to the async listeners. */
export type OutboxEvent = {
  id: number;
  accountId: number;
  name: WebhookEventName;
  conversationId: number | null;
  conversationSeq: number | null;
  payload: OutboxPayload;
  createdAt: number;
};

export type AsyncListenerContext = {
  env: Bindings;
  db: Db;
  now: () => number;
  /** Outbound HTTP (real fetch, or a recorder in tests). */
  outbound: Outbound;
  /**
   * Loads `key` once per queue batch: the events of a batch mostly share an account and an
   * inbox, so their receivers and rules are read once, not once per event. Absent: no sharing.
   */
  memo?: <T>(key: string, load: () => Promise<T>) => Promise<T>;
};

/** The batch's memo when there is one, else a plain load. */
export const memoized = <T>(
  ctx: { memo?: AsyncListenerContext["memo"] },
  key: string,
  load: () => Promise<T>,
) => (ctx.memo ? ctx.memo(key, load) : load());

/** An async listener runs in the queue consumer, once per outbox event (at least once). */
export type AsyncListener = (event: OutboxEvent, ctx: AsyncListenerContext) => Promise<void>;
