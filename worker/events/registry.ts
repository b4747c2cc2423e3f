import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import type { Bindings } from "../env";
import type { Logger } from "../lib/logger";
import type { AsyncListener, AsyncListenerContext } from "./outbox-types";
import type { AnyDomainEvent, CommittedEvent } from "./types";

export type LiveContext = { env: Bindings; log: Logger };

/** Runs after a unit of work committed, before its response leaves (live frames). */
export type LiveHandler = (committed: CommittedEvent, ctx: LiveContext) => Promise<void>;

/** One attempt of one delivery (a queue message of kind "delivery"). */
export type DeliveryHandler = (
  id: number,
  ctx: AsyncListenerContext & { timeoutMs?: number },
) => Promise<{ kind: string; delaySeconds?: number }>;

/** A periodic task of the cron sweep; answers how many things it handled. */
export type SweepTask = (env: Bindings, now: number) => Promise<number>;

/**
 * Facts derived from domain events and written in the batch that records them (reporting
 * events and their rollups): the change, its outbox rows and its derived rows commit together.
 */
export type DerivedWrites = {
  /** Runs before the batch is built: reads or writes what the statements rely on. */
  prepare?: (db: Db, events: readonly AnyDomainEvent[], at: number) => Promise<void>;
  /** The statements one event adds to the batch, after every outbox row of the batch. */
  statements: (db: Db, event: AnyDomainEvent, at: number) => BatchItem<"sqlite">[];
  /**
   * The log writer's form of `statements` for the message_created events of its transaction
   * (optional: without it, a call whose messages this handler writes for goes the statement by
   * statement way): the same rows for all of them (the rows of each message in turn), as SQL
   * text built once, bound per transaction.
   */
  createdMessages?: (messages: CreatedMessage[]) => RawStatement[];
};

/** SQL text and its bound values, for `D1Database.prepare(sql).bind(...params)`. */
export type RawStatement = { sql: string; params: unknown[] };

/**
 * A message.created event of a log writer's transaction (its rooms' calls in turn, each one
 * conversation's messages in seq order), with its conversation's reply clocks as the message
 * found them: its call's earlier messages moved them (writer-batch.ts), and the conversation
 * row is touched once, after every message's facts.
 * `firstReplyAt`: the first human reply of the call before it (the row's value stands if set);
 * `waitingAt` with `waitingReset`: a human reply before it cleared the wait, which then started
 * at `waitingAt` (or not at all); without: the wait started at `waitingAt` unless it ran already.
 */
export type CreatedMessage = {
  messageId: number;
  accountId: number;
  conversationId: number;
  isPrivate: boolean;
  firstReplyAt: number | null;
  waitingReset: boolean;
  waitingAt: number | null;
};

/** Who handles events, by where they run. The composition root (worker/wiring.ts) fills it. */
export type Handlers = {
  live: readonly LiveHandler[];
  /** Queue handlers, run in this order for every outbox event. */
  queued: readonly AsyncListener[];
  delivery: DeliveryHandler | null;
  sweep: Readonly<Record<string, SweepTask>>;
  /** Derived writes, in the batch of the events they come from. */
  derived: readonly DerivedWrites[];
};

// Isolate-level on purpose: set once when the Worker's entry module loads, never per request.
let registered: Handlers = { live: [], queued: [], delivery: null, sweep: {}, derived: [] };

/** Sets the handlers (idempotent: a second call replaces the first). */
export function registerHandlers(handlers: Handlers): void {
  registered = handlers;
}

export const handlers = (): Handlers => registered;

/** Runs every derived-writes `prepare` for `events` (before their batch is built). */
export async function prepareDerived(db: Db, events: readonly AnyDomainEvent[], at: number) {
  for (const d of registered.derived) {
    await d.prepare?.(db, events, at);
  }
}
