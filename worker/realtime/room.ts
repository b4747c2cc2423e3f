import type { Bindings } from "../env";
import type { ConversationRoom } from "./conversation-room";

/**
 * The room's RPC surface as callers see it. Workers' RPC typing turns free-form JSON fields
 * (`Record<string, unknown>`) into `never`, so the stub is re-typed from the class itself.
 */
export type RoomStub = Pick<ConversationRoom, "appendMessage" | "updateMessage">;

/** The one place room names are made: one room per conversation, keyed by account and id. */
export function roomFor(env: Bindings, accountId: number, conversationId: number): RoomStub {
  return env.ROOMS.get(
    env.ROOMS.idFromName(`${accountId}:${conversationId}`),
  ) as unknown as RoomStub;
}
