import type { Db } from "../../db/client";
import type { MessageRow } from "../../db/schema";
import { type MessageConversationContext, presentMessage } from "./presenter";
import type { Message } from "./schema";
import { loadMessageExtras, senderKey } from "./senders";

/**
 * Presents many messages (possibly of many conversations) with batched sender and attachment
 * loads. `contexts` is keyed by the conversation's internal id.
 */
export async function presentMessages(
  db: Db,
  rows: MessageRow[],
  contexts: Map<number, MessageConversationContext>,
  origin: string,
): Promise<Message[]> {
  const { senders, files } = await loadMessageExtras(db, rows);
  return rows.map((row) => {
    const context = contexts.get(row.conversationId);
    if (!context) {
      throw new Error(`no conversation context for message ${row.id}`);
    }
    const key = senderKey(row);
    return presentMessage(row, context, {
      sender: key ? (senders.get(key) ?? null) : null,
      attachments: files.get(row.id) ?? [],
      origin,
    });
  });
}
