import type { ConversationRow } from "../../db/schema";
import type { Typer } from "../../events/types";
import { roomConversation } from "../../realtime/room-typing";
import { roomFor } from "../conversation-room/stub";
import type { ConversationScope } from "./access";

export type TypingChange = { on: boolean; typer: Typer; isPrivate: boolean };

/**
 * Typing is never stored: the conversation's room relays it and records
 * conversation.typing_on/off when the state really changes (renewals and socket frames go the
 * same way; see realtime/room-typing.ts).
 */
export async function setTyping(
  scope: ConversationScope,
  row: ConversationRow,
  { on, typer, isPrivate }: TypingChange,
): Promise<void> {
  await roomFor(scope.deps.env, row.accountId, row.id).setTyping(
    typer,
    on,
    isPrivate,
    roomConversation(row),
  );
}
