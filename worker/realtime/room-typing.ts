import { createDb } from "../db/client";
import type { Bindings } from "../env";
import { eventWrites, relayOutbox } from "../events/outbox";
import type { Typer } from "../events/types";
import { nowSeconds } from "../lib/time";

/** Which conversation a room serves, as the Worker told it when it opened a socket. */
export type RoomConversation = { accountId: number; id: number; inboxId: number };

/** What a room keeps of its conversation row. */
export const roomConversation = (row: RoomConversation): RoomConversation => ({
  accountId: row.accountId,
  id: row.id,
  inboxId: row.inboxId,
});

export const ROOM_CONVERSATION_HEADER = "x-parley-conversation";

/**
 * Records conversation_typing_on/off for a change of someone's typing state, whichever way it
 * came (a socket frame, an HTTP toggle, the expiry alarm): the room is the one place that
 * knows a change from a renewal, so receivers get one event per change, never one per keystroke.
 */
export async function recordTypingChange(
  env: Bindings,
  conversation: RoomConversation,
  change: { typer: Typer; on: boolean; isPrivate: boolean },
): Promise<void> {
  const db = createDb(env.DB);
  const at = nowSeconds();
  const { typer, on, isPrivate } = change;
  const writes = eventWrites(
    db,
    [
      {
        name: on ? "conversation_typing_on" : "conversation_typing_off",
        accountId: conversation.accountId,
        conversation: conversation.id,
        payload: { inbox_id: conversation.inboxId, typer, is_private: isPrivate },
      },
    ],
    { performedBy: { type: typer.type, id: typer.id }, origin: "", at },
  );
  const [first, ...rest] = writes.statements;
  if (!first) {
    return;
  }
  const results = (await db.batch([first, ...rest])) as unknown[];
  // Unrelayed rows are the cron sweep's; the change itself is already committed.
  await relayOutbox(env, db, writes.ids(results, 0), at);
}
