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
  /** The batch's events, in its order: what a per-batch read loads at once (`batched`). */
  batch?: readonly OutboxEvent[];
  /**
   * Called by a listener that changed what the next listeners read (an automation rule's
   * actions): the batch's memo is dropped, so they read after the change, as they would alone.
   */
  changed?: () => void;
};

/** The batch's memo when there is one, else a plain load. */
export const memoized = <T>(
  ctx: { memo?: AsyncListenerContext["memo"] },
  key: string,
  load: () => Promise<T>,
) => (ctx.memo ? ctx.memo(key, load) : load());

/** D1 allows 100 bound parameters a statement: a batch's ids are read this many at a time. */
const READ_CHUNK = 90;

async function loadAll<K, V>(keys: K[], load: (keys: K[]) => Promise<Map<K, V>>) {
  const parts = [];
  for (let i = 0; i < keys.length; i += READ_CHUNK) {
    parts.push(load(keys.slice(i, i + READ_CHUNK)));
  }
  return new Map((await Promise.all(parts)).flatMap((m) => [...m]));
}

/**
 * One event's row of a read made once per batch: the first event to ask loads the rows of every
 * event of the batch (`keyOf`; undefined: the event needs none) in one call, the others share
 * it. A failed batch read is not kept, and the event then reads its own row alone, so one
 * failure costs no more than it did per event. Without a batch it is a read of one row.
 */
export async function batched<K extends number | string, V>(
  ctx: Pick<AsyncListenerContext, "memo" | "batch">,
  name: string,
  event: OutboxEvent,
  keyOf: (event: OutboxEvent) => K | undefined,
  load: (keys: K[]) => Promise<Map<K, V>>,
): Promise<V | undefined> {
  const key = keyOf(event);
  if (key === undefined) {
    return undefined;
  }
  const own = () => load([key]).then((rows) => rows.get(key));
  if (!ctx.memo || !ctx.batch?.includes(event)) {
    return own();
  }
  const batch = ctx.batch;
  try {
    const rows = await ctx.memo(`batched:${name}`, () => {
      const keys = new Set<K>();
      for (const e of batch) {
        const k = keyOf(e);
        if (k !== undefined) {
          keys.add(k);
        }
      }
      return loadAll([...keys], load);
    });
    return rows.get(key);
  } catch {
    return own();
  }
}

/** A queue handler runs in the consumer, once per outbox event (at least once). */
export type AsyncListener = (event: OutboxEvent, ctx: AsyncListenerContext) => Promise<void>;
