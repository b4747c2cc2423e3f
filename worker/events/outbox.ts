import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import type { Bindings } from "../env";
import type { Deps } from "../http/context";
import type { Actor } from "../modules/access-tokens/service";
import type { OutboxPayload, PerformedBy, WebhookEventName } from "./outbox-types";
import { type IdRef, markSent, type OutboxInsert, outboxStatements } from "./queries";
import { sendToQueue } from "./queue-messages";

/** One domain event to record with a change: the service says what, the outbox says how. */
export type OutboxEntry = {
  name: WebhookEventName;
  accountId: number;
  /** Internal conversation id (or SQL naming it inside the batch); none for contact events. */
  conversation?: IdRef | null;
  payload?: OutboxPayload;
  /** Payload ids only the batch knows (a new message's or contact's id). */
  refs?: OutboxInsert["refs"];
  /** Record only if the statement before the event's changed a row (conditional updates). */
  ifChanged?: boolean;
};

/** What recording needs from the caller: the request's deps, or the room's equivalent. */
export type Recorder = { performedBy: PerformedBy; origin: string; at: number };

export const SYSTEM: PerformedBy = { type: "system", id: null };

/** Who a request acts as, for `performed_by` (automation passes its rule explicitly). */
export function performerOf(actor: Actor): PerformedBy {
  switch (actor.kind) {
    case "user":
      return { type: "user", id: actor.user.id };
    case "bot":
      return { type: "agent_bot", id: actor.bot.id };
    case "contact":
      return { type: "contact", id: actor.contact.id };
    case "automation":
      return { type: "automation_rule", id: actor.ruleId };
    default:
      return SYSTEM;
  }
}

type Batch = BatchItem<"sqlite">;

/** The statements of `entries`, and how to read the new outbox ids back from the results. */
export function eventWrites(db: Db, entries: OutboxEntry[], by: Recorder) {
  const statements: Batch[] = [];
  const idPositions: number[] = [];
  for (const e of entries) {
    const payload: OutboxPayload = { performed_by: by.performedBy, ...e.payload };
    if (by.origin) {
      payload.origin ??= by.origin;
    }
    const conversation = e.conversation ?? null;
    const refs = { ...e.refs };
    if (typeof conversation === "number") {
      payload.conversation_id = conversation;
    } else if (conversation !== null) {
      refs.conversation_id = conversation;
    }
    const written = outboxStatements(db, {
      accountId: e.accountId,
      name: e.name,
      conversation,
      payload,
      refs,
      createdAt: by.at,
      ifChanged: e.ifChanged ?? false,
    });
    statements.push(...written);
    idPositions.push(statements.length - 1);
  }
  const ids = (results: unknown[], offset: number) =>
    idPositions.flatMap((i) => ((results[offset + i] as { id: number }[]) ?? []).map((r) => r.id));
  return { statements, ids };
}

/** The recorder of a unit of work: its performer and origin, stamped now. */
export const recorderOf = (deps: Deps): Recorder => ({
  performedBy: deps.performedBy,
  origin: deps.origin,
  at: deps.now(),
});

/**
 * Runs `statements` and the outbox rows of `entries` in one D1 batch, so the change and its
 * events commit together, and hands the new rows to the request's relay. Returns the results of
 * `statements` only, in order.
 */
export async function commitWithEvents(
  deps: Deps,
  statements: Batch[],
  entries: OutboxEntry[],
): Promise<unknown[]> {
  const writes = eventWrites(deps.db, entries, recorderOf(deps));
  const all = [...statements, ...writes.statements];
  if (all.length === 0) {
    return [];
  }
  const results = (await deps.db.batch(all as [Batch, ...Batch[]])) as unknown[];
  deps.events.recorded(writes.ids(results, statements.length));
  return results.slice(0, statements.length);
}

/** Events with no stored change of their own (typing, widget opened): their rows alone. */
export async function recordEvents(deps: Deps, entries: OutboxEntry[]): Promise<void> {
  await commitWithEvents(deps, [], entries);
}

/**
 * Sends committed outbox rows to the queue and marks them sent. A failure leaves them unsent,
 * for the cron sweep; a crash after the send but before the mark only means a second relay,
 * which the consumer's idempotent listeners absorb.
 */
export const relayOutbox = (env: Bindings, db: Db, ids: number[], at: number) =>
  sendToQueue(env.EVENTS, "event", ids, { sent: (chunk) => markSent(db, chunk, at) });
