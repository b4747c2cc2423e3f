import { and, eq, inArray, max } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations, type MessageRow, messages } from "../../db/schema";
import { inSlices } from "../../lib/bind-limit";

const logSeqQuery = (db: Db, conversationId: number) =>
  db
    .select({ logSeq: conversations.logSeq })
    .from(conversations)
    .where(eq(conversations.id, conversationId));

/**
 * What a log repair reads in one round trip (log-repair.ts): the rows at the log's ids, the
 * conversation's top seq, whether it still exists and the seq up to which D1 holds its log
 * (`log_seq`), and the rows holding the log's idempotency keys. The id and key lists are
 * sliced: a write carries up to 200 messages and D1 binds at most 100 values a statement.
 */
export async function repairReads(
  db: Db,
  conversationId: number,
  ids: number[],
  keys: string[],
): Promise<{
  atIds: MessageRow[];
  topSeq: number;
  exists: boolean;
  logSeq: number;
  byKey: MessageRow[];
}> {
  const idSlices = inSlices(ids);
  const keySlices = inSlices(keys);
  const results = (await db.batch([
    db
      .select({ seq: max(messages.seq) })
      .from(messages)
      .where(eq(messages.conversationId, conversationId)),
    logSeqQuery(db, conversationId),
    ...idSlices.map((part) => db.select().from(messages).where(inArray(messages.id, part))),
    ...keySlices.map((part) =>
      db
        .select()
        .from(messages)
        .where(
          and(eq(messages.conversationId, conversationId), inArray(messages.idempotencyKey, part)),
        ),
    ),
  ])) as unknown[][];
  const [top, conversation, ...rest] = results as [
    { seq: number | null }[],
    { logSeq: number }[],
    ...MessageRow[][],
  ];
  return {
    atIds: rest.slice(0, idSlices.length).flat(),
    topSeq: top[0]?.seq ?? 0,
    exists: conversation.length > 0,
    logSeq: conversation[0]?.logSeq ?? 0,
    byKey: rest.slice(idSlices.length).flat(),
  };
}

/** The seq up to which D1 holds the conversation's log (0: none, or no such conversation). */
export async function logSeqOf(db: Db, conversationId: number): Promise<number> {
  return (await logSeqQuery(db, conversationId).get())?.logSeq ?? 0;
}
