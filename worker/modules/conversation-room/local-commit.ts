import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { type ConversationRow, conversations, type MessageRow } from "../../db/schema";
import type { MessageTouch } from "../messages/queries";
import {
  type Counters,
  counterStatements,
  countersFrom,
  findByIdempotencyKeys,
} from "../messages/queries";
import type { AppendRequest } from "./types";

/** The row D1 will hold for this message: the insert's values and the columns' defaults. */
export function localRow(req: AppendRequest, id: number, seq: number): MessageRow {
  const v = req.values;
  return {
    id,
    accountId: v.accountId,
    inboxId: v.inboxId,
    conversationId: req.conversationId,
    seq,
    content: v.content ?? null,
    messageType: v.messageType,
    contentType: v.contentType ?? "text",
    contentAttributes: v.contentAttributes ?? {},
    private: v.private ?? false,
    status: v.status ?? "sent",
    sourceId: v.sourceId ?? null,
    senderType: v.senderType ?? null,
    senderId: v.senderId ?? null,
    externalSourceIds: v.externalSourceIds ?? {},
    additionalAttributes: v.additionalAttributes ?? {},
    sentiment: v.sentiment ?? {},
    echoId: v.echoId ?? null,
    idempotencyKey: v.idempotencyKey ?? null,
    createdAt: v.createdAt ?? 0,
    updatedAt: v.updatedAt ?? v.createdAt ?? 0,
  };
}

/** The conversation's clocks as `touchConversation` moves them in D1 (the same rules). */
export function applyTouch(row: ConversationRow, touch: MessageTouch): ConversationRow {
  const at = touch.at;
  const next = { ...row, updatedAt: at };
  if (touch.kind === "incoming") {
    next.lastActivityAt = at;
    next.waitingSince = row.waitingSince ?? at;
  } else if (touch.kind === "human_reply") {
    next.lastActivityAt = at;
    next.waitingSince = null;
    next.firstReplyCreatedAt = row.firstReplyCreatedAt ?? at;
  } else if (touch.kind === "activity") {
    next.lastActivityAt = at;
  }
  return next;
}

/** What a group needs to read from D1 before it commits in the room (nothing, when warm). */
export type CheckNeeds = {
  conversationId: number;
  /** Messages whose sender's access must still hold (socket senders): their guards. */
  guarded: AppendRequest[];
  /** Idempotency keys not in the room's log: D1 may hold them from before. */
  keys: string[];
  /** The presenter's counters, when the room holds none. */
  counters: AppendRequest["counters"] | null;
  /** The conversation row, when the room holds none. */
  conversation: number | null;
};

export type CheckResult = {
  /** Per guarded message, in order: whether its sender may still write. */
  allowed: boolean[];
  stored: Map<string, MessageRow>;
  counters?: Counters;
  conversation?: ConversationRow;
};

/**
 * The checks a group's messages made in their D1 batch, read in one round trip before they
 * commit in the room: the senders' access (the guard), earlier messages with the same
 * idempotency key, and what the room must show with the messages. Reads only.
 */
export async function checkInD1(db: Db, needs: CheckNeeds): Promise<CheckResult> {
  const statements: BatchItem<"sqlite">[] = [];
  for (const req of needs.guarded) {
    statements.push(
      db
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.id, req.conversationId), req.guard)),
    );
  }
  const keysAt = statements.length;
  if (needs.keys.length > 0) {
    statements.push(findByIdempotencyKeys(db, needs.conversationId, needs.keys));
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
    return { allowed: [], stored: new Map() };
  }
  const results = (await db.batch(statements as never)) as unknown[][];
  const found = needs.keys.length > 0 ? (results[keysAt] as MessageRow[]) : [];
  return {
    allowed: needs.guarded.map((_, i) => (results[i] ?? []).length > 0),
    stored: new Map(found.map((row) => [row.idempotencyKey as string, row])),
    counters: needs.counters ? countersFrom(results.slice(countersAt, countersAt + 2)) : undefined,
    conversation:
      needs.conversation !== null ? (results[rowAt]?.[0] as ConversationRow) : undefined,
  };
}
