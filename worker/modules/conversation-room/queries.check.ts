import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { type ConversationRow, conversations, type MessageRow } from "../../db/schema";
import { inSlices } from "../../lib/bind-limit";
import {
  type Counters,
  counterStatements,
  countersFrom,
  findByIdempotencyKeys,
  keysSince,
} from "../messages/queries";
import type { AppendRequest } from "./types";

/** What a group needs to read from D1 before it commits in the room (nothing, when warm). */
export type CheckNeeds = {
  conversationId: number;
  /** Keys the room kept (a retry of a message no longer in its log): D1's row answers it. */
  keys: string[];
  /** The room never kept keys: D1's keys of messages created since this time (seconds). */
  keysSince: number | null;
  /** The presenter's counters, when the room holds none. */
  counters: AppendRequest["counters"] | null;
  /** The conversation row, when the room holds none. */
  conversation: number | null;
};

export type CheckResult = {
  stored: Map<string, MessageRow>;
  /** D1's keys of the window (`keysSince`), for the room to keep. */
  keys?: { key: string; at: number }[];
  counters?: Counters;
  conversation?: ConversationRow;
};

/**
 * What a group's commit in the room must read from D1, in one round trip, and only when the room
 * does not hold it: the stored messages of retried keys, the keys of a room that never kept them,
 * the presenter's counters and the conversation row. A warm room with new messages reads
 * nothing. Reads only.
 */
export async function checkInD1(db: Db, needs: CheckNeeds): Promise<CheckResult> {
  const statements: BatchItem<"sqlite">[] = [];
  // A group's keys stay under D1's bound values (groups hold 40 messages), but slice anyway.
  for (const keys of inSlices(needs.keys)) {
    statements.push(findByIdempotencyKeys(db, needs.conversationId, keys));
  }
  const keptAt = statements.length;
  if (needs.keysSince !== null) {
    statements.push(keysSince(db, needs.conversationId, needs.keysSince));
  }
  const countersAt = statements.length;
  if (needs.counters) {
    statements.push(...counterStatements(db, needs.counters));
  }
  const rowAt = statements.length;
  if (needs.conversation !== null) {
    statements.push(
      db.select().from(conversations).where(eq(conversations.id, needs.conversation)),
    );
  }
  if (statements.length === 0) {
    return { stored: new Map() };
  }
  const results = (await db.batch(statements as never)) as unknown[][];
  const found = results.slice(0, keptAt).flat() as MessageRow[];
  return {
    stored: new Map(found.map((row) => [row.idempotencyKey as string, row])),
    keys: needs.keysSince !== null ? (results[keptAt] as { key: string; at: number }[]) : undefined,
    counters: needs.counters ? countersFrom(results.slice(countersAt, countersAt + 2)) : undefined,
    conversation:
      needs.conversation !== null ? (results[rowAt]?.[0] as ConversationRow) : undefined,
  };
}
