import { recordEvents } from "../../events/outbox";
import type { Typer } from "../../events/types";
import type { ConversationScope } from "./access";
import type { ConversationRow } from "./queries";

export type TypingChange = { on: boolean; typer: Typer; isPrivate: boolean };

/**
 * Typing is never stored: the live listeners get it after the request, and webhook receivers
 * get conversation_typing_on/off from an outbox row written alone (there is no change to join).
 */
export async function setTyping(
  scope: ConversationScope,
  row: ConversationRow,
  { on, typer, isPrivate }: TypingChange,
): Promise<void> {
  await recordEvents(scope.deps, [
    {
      name: on ? "conversation_typing_on" : "conversation_typing_off",
      accountId: row.accountId,
      conversation: row.id,
      payload: { inbox_id: row.inboxId, typer, is_private: isPrivate },
    },
  ]);
  scope.deps.events.emit(on ? "conversation.typing_on" : "conversation.typing_off", {
    conversation: row,
    typer,
    isPrivate,
  });
}
