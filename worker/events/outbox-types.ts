import type { Db } from "../db/client";
import type { Bindings } from "../env";
import type { Logger } from "../lib/logger";
import type { Outbound } from "../lib/outbound";
import type { WebhookEventName } from "./names";
import type { ChangedAttributes, Stamp, Typer } from "./types";

/** An outbox row's payload as stored: the event's data (any event's keys) and its stamp. */
export type OutboxPayload = Partial<Stamp> & {
  message_id?: number;
  contact_id?: number;
  inbox_id?: number;
  contact_inbox_id?: number;
  changed_attributes?: ChangedAttributes;
  typer?: Typer;
  is_private?: boolean;
  event_info?: Record<string, unknown>;
};

/** An outbox row as the queue consumer hands it to the handlers, under its webhook name. */
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
  log?: Logger;
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

/** A queue handler runs in the consumer, once per outbox event (at least once). */
export type AsyncListener = (event: OutboxEvent, ctx: AsyncListenerContext) => Promise<void>;
