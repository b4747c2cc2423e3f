import type { Typer } from "../../events/types";
import type { ConversationScope } from "./access";
import type { ConversationRow } from "./queries";

export type TypingChange = { on: boolean; typer: Typer; isPrivate: boolean };

/**
 * Typing is never stored: the conversation's room relays it after the request, and records
 * conversation_typing_on/off for webhook receivers when the state really changes (renewals and
 * socket frames go the same way; see realtime/room-typing.ts).
 */
export async function setTyping(
  scope: ConversationScope,
  row: ConversationRow,
  { on, typer, isPrivate }: TypingChange,
): Promise<void> {
  scope.deps.events.emit(on ? "conversation.typing_on" : "conversation.typing_off", {
    conversation: row,
    typer,
    isPrivate,
  });
}
