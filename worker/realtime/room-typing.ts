import type { Bindings } from "../env";
import { commit } from "../events/commit";
import { createDeps } from "../events/deps";
import type { Typer } from "../events/types";

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
 * Records conversation.typing_on/off for a change of someone's typing state, whichever way it
 * came (a socket frame, an HTTP toggle, the expiry alarm): the room is the one place that
 * knows a change from a renewal, so receivers get one event per change, never one per keystroke.
 * The room sent the frames itself; the commit only adds the outbox row.
 */
export async function recordTypingChange(
  env: Bindings,
  conversation: RoomConversation,
  change: { typer: Typer; on: boolean; isPrivate: boolean },
): Promise<void> {
  const { typer, on, isPrivate } = change;
  const deps = createDeps(env, { performedBy: { type: typer.type, id: typer.id } });
  const data = { inbox_id: conversation.inboxId, typer, is_private: isPrivate };
  const where = { accountId: conversation.accountId, conversation: conversation.id };
  await commit(
    deps,
    [],
    [
      on
        ? { ...where, name: "conversation.typing_on", data }
        : { ...where, name: "conversation.typing_off", data },
    ],
  );
  // Sends the row to the queue; an unrelayed row is the cron sweep's.
  await deps.events.flush();
}
