import type { Bindings } from "../../env";
import type { MessageRoom } from "./room";

/**
 * The stubs' RPC surface as callers see it. Workers' RPC typing turns free-form JSON fields
 * (`Record<string, unknown>`) into `never`, so the stub is re-typed from the class.
 */
export type RoomStub = Pick<
  MessageRoom,
  "appendMessage" | "updateMessage" | "publish" | "setTyping" | "fetch" | "closeVisitorSessions"
>;

/** The one place room names are made: one room per conversation, keyed by account and id. */
export function roomFor(env: Bindings, accountId: number, conversationId: number): RoomStub {
  return env.ROOMS.get(roomIdFor(env, accountId, conversationId)) as unknown as RoomStub;
}

export const roomIdFor = (env: Bindings, accountId: number, conversationId: number) =>
  env.ROOMS.idFromName(`${accountId}:${conversationId}`);
