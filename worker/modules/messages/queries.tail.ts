import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { conversations } from "../../db/schema";
import {
  type CounterInput,
  type Counters,
  counterStatements,
  countersFrom,
  newestSeq,
} from "./queries";

const newestOf = (db: Db, conversationId: number) =>
  db
    .select({ n: newestSeq(conversationId) })
    .from(conversations)
    .where(eq(conversations.id, conversationId));

/**
 * The conversation's counters and D1's newest seq in it, in one batch (one snapshot): the room's
 * tail above that seq is what these counters lack (messages/tail.ts).
 */
export async function countersAndNewest(
  db: Db,
  conversation: CounterInput,
): Promise<Counters & { newest: number }> {
  const [unread, source, newest] = await db.batch([
    ...counterStatements(db, conversation),
    newestOf(db, conversation.id),
  ]);
  return { ...countersFrom([unread, source]), newest: newest[0]?.n ?? 0 };
}

/** The conversation's row and D1's newest seq in it, in one batch (one snapshot). */
export async function rowAndNewest(db: Db, conversationId: number) {
  const [rows, newest] = await db.batch([
    db.select().from(conversations).where(eq(conversations.id, conversationId)),
    newestOf(db, conversationId),
  ]);
  return { row: rows[0], newest: newest[0]?.n ?? 0 };
}
