import type { Db } from "../../db/client";
import type { AttachmentRow, MessageRow } from "../../db/schema";
import { eventWrites, type Recorder } from "../../events/commit";
import { SYSTEM } from "../../events/deps";
import type { AnyDomainEvent } from "../../events/types";
import { attachmentsOf, type NewMessage, updateMessageRow } from "../messages/queries";

const NO_RECORDER: Recorder = { performedBy: SYSTEM, origin: "", at: 0 };

/** Who updates a message of which account and inbox, for its message_updated row. */
export type UpdateRecorder = Recorder & { accountId: number; inboxId: number; isPrivate: boolean };

/**
 * A message update, its attachments (for the broadcast) and its message_updated event in one
 * batch (no event if no row matched).
 */
export async function writeMessageUpdate(
  db: Db,
  conversationId: number,
  messageId: number,
  values: Partial<NewMessage>,
  record: UpdateRecorder | null,
): Promise<{ row: MessageRow | undefined; attachments: AttachmentRow[]; eventIds: number[] }> {
  const events: AnyDomainEvent[] = record
    ? [
        {
          name: "message.updated",
          accountId: record.accountId,
          conversation: conversationId,
          data: {
            inbox_id: record.inboxId,
            message_id: messageId,
            is_private: record.isPrivate,
          },
          ifChanged: true,
        },
      ]
    : [];
  const writes = eventWrites(db, events, record ?? NO_RECORDER);
  const update = updateMessageRow(db, conversationId, messageId, values);
  // The attachments read goes last: the event's changes() guard must follow the update.
  const files = attachmentsOf(db, messageId);
  const results = (await db.batch([update, ...writes.statements, files] as never)) as unknown[];
  return {
    row: (results[0] as MessageRow[])[0],
    attachments: results.at(-1) as AttachmentRow[],
    eventIds: writes.ids(results, 1),
  };
}
