import { and, count, eq, inArray, max } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations, type MessageRow, messages } from "../../db/schema";
import { inSlices } from "../../lib/bind-limit";

/**
 * What a log repair reads in one round trip (log-repair.ts): the rows at the log's ids, the
 * conversation's top seq, whether it still exists, and the rows holding the log's idempotency
 * keys. The id and key lists are sliced: a write carries up to 200 messages and D1 binds at most
 * 100 values a statement.
 */
export async function repairReads(
  db: Db,
  conversationId: number,
  ids: number[],
  keys: string[],
): Promise<{ atIds: MessageRow[]; topSeq: number; exists: boolean; byKey: MessageRow[] }> {
  const idSlices = inSlices(ids);
  const keySlices = inSlices(keys);
  const results = (await db.batch([
    db
      .select({ seq: max(messages.seq) })
      .from(messages)
      .where(eq(messages.conversationId, conversationId)),
    db.select({ n: count() }).from(conversations).where(eq(conversations.id, conversationId)),
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
  const [top, exists, ...rest] = results as [
    { seq: number | null }[],
    { n: number }[],
    ...MessageRow[][],
  ];
  return {
    atIds: rest.slice(0, idSlices.length).flat(),
    topSeq: top[0]?.seq ?? 0,
    exists: (exists[0]?.n ?? 0) > 0,
    byKey: rest.slice(idSlices.length).flat(),
  };
}
