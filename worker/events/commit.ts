import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import type { ConversationRow } from "../db/schema";
import type { Deps } from "./deps";
import { isOutboxEvent, webhookName } from "./names";
import { outboxStatements } from "./queries";
import { handlers, prepareDerived } from "./registry";
import type { AnyDomainEvent, CommittedEvent, PerformedBy, Stamp } from "./types";

type Batch = BatchItem<"sqlite">;

/** Who records, from where, when: stamped on every outbox row of a commit. */
export type Recorder = { performedBy: PerformedBy; origin: string; at: number };

export const recorderOf = (deps: Deps): Recorder => ({
  performedBy: deps.performedBy,
  origin: deps.origin,
  at: deps.now(),
});

/**
 * An outbox event's payload as recorded (the recorder's stamp over the event's data), and the
 * ids only the batch knows (`refs`, set into the payload by SQL).
 */
export function outboxPayload(e: AnyDomainEvent, by: Recorder) {
  const payload: Stamp & Record<string, unknown> = { performed_by: by.performedBy, ...e.data };
  if (by.origin) {
    payload.origin ??= by.origin;
  }
  const conversation = e.conversation ?? null;
  const refs: Record<string, SQL> = { ...(e.refs as Record<string, SQL> | undefined) };
  if (typeof conversation === "number") {
    payload.conversation_id = conversation;
  } else if (conversation !== null) {
    refs.conversation_id = conversation;
  }
  return { payload, refs, conversation };
}

/**
 * The outbox statements of `events` (live-only events write none) and the rows derived from
 * them (registry's `derived`), to append to the batch of the change itself, and how to read
 * back from the batch's results what was recorded. Callers run `prepareDerived` first.
 */
export function eventWrites(db: Db, events: AnyDomainEvent[], by: Recorder) {
  const statements: Batch[] = [];
  /** Per event: the statement whose rows are its outbox row, or -1 for a live-only event. */
  const positions: number[] = [];
  for (const e of events) {
    if (!isOutboxEvent(e.name)) {
      positions.push(-1);
      continue;
    }
    const { payload, refs, conversation } = outboxPayload(e, by);
    statements.push(
      ...outboxStatements(db, {
        accountId: e.accountId,
        name: webhookName(e.name),
        conversation,
        payload,
        refs,
        createdAt: by.at,
        ifChanged: e.ifChanged ?? false,
      }),
    );
    positions.push(statements.length - 1);
  }
  // Derived rows come after every outbox row: a conditional event's outbox row is guarded by
  // `changes()` of the statement just before it, which a derived row in between would break.
  for (const d of handlers().derived) {
    for (const e of events) {
      statements.push(...d.statements(db, e, by.at));
    }
  }
  const rowsAt = (results: unknown[], offset: number, i: number) =>
    ((results[offset + i] as { id: number }[] | undefined) ?? []).map((r) => r.id);
  return {
    statements,
    /** The new outbox ids, given the batch's results and where these statements started. */
    ids: (results: unknown[], offset: number) =>
      positions.flatMap((i) => (i < 0 ? [] : rowsAt(results, offset, i))),
    /** The events that were recorded (a conditional event whose change did not happen was not). */
    committed: (
      results: unknown[],
      offset: number,
      conversation: ConversationRow | undefined,
    ): CommittedEvent[] =>
      events.flatMap((event, n) => {
        const i = positions[n] as number;
        const recorded =
          i < 0
            ? !event.ifChanged || conversation !== undefined
            : rowsAt(results, offset, i).length > 0;
        return recorded ? [{ event, conversation }] : [];
      }),
  };
}

export type CommitOptions = {
  /** The conversation as the change left it (from the change's results), for live frames. */
  conversation?: (results: unknown[]) => ConversationRow | undefined;
};

/** One change of a `commitMany`: its statements, its events, and how to read its row back. */
export type CommitPart = CommitOptions & { statements: Batch[]; events: AnyDomainEvent[] };

/**
 * The one way a change becomes events: runs `statements` and the outbox rows of `events` in one
 * D1 batch, so the change and its events commit together, then hands what was recorded to the
 * unit of work (flushed: outbox rows to the queue, events to the live handlers). Returns the
 * results of `statements` only, in order.
 */
export async function commit(
  deps: Deps,
  statements: Batch[],
  events: AnyDomainEvent[],
  opts: CommitOptions = {},
): Promise<unknown[]> {
  const [own] = await commitMany(deps, [{ ...opts, statements, events }]);
  return own ?? [];
}

/**
 * Several changes, each with its events, in ONE D1 batch (one round trip, one transaction):
 * the timed work commits a batch of conversations' status changes so. Each part's outbox rows
 * follow its own statements, so a conditional part's events depend on its own update only.
 * Returns each part's own results.
 */
export async function commitMany(deps: Deps, parts: CommitPart[]): Promise<unknown[][]> {
  const by = recorderOf(deps);
  await prepareDerived(
    deps.db,
    parts.flatMap((p) => p.events),
    by.at,
  );
  const all: Batch[] = [];
  const placed = parts.map((part) => {
    const writes = eventWrites(deps.db, part.events, by);
    const at = all.length;
    all.push(...part.statements, ...writes.statements);
    return { part, writes, at, events: at + part.statements.length };
  });
  if (all.length === 0) {
    return parts.map(() => []);
  }
  const results = (await deps.db.batch(all as [Batch, ...Batch[]])) as unknown[];
  return placed.map(({ part, writes, at, events }) => {
    const own = results.slice(at, events);
    const conversation = part.conversation?.(own);
    deps.events.committed(
      writes.committed(results, events, conversation),
      writes.ids(results, events),
    );
    return own;
  });
}
