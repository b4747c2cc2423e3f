import type { Bindings } from "../env";
import type { AccountFeed } from "./account-feed";
import type { ConversationRoom } from "./conversation-room";

/**
 * The stubs' RPC surface as callers see it. Workers' RPC typing turns free-form JSON fields
 * (`Record<string, unknown>`) into `never`, so the stubs are re-typed from the classes.
 */
export type RoomStub = Pick<
  ConversationRoom,
  "appendMessage" | "updateMessage" | "publish" | "setTyping" | "fetch"
>;
export type FeedStub = Pick<AccountFeed, "publish" | "fetch">;

/** The one place room names are made: one room per conversation, keyed by account and id. */
export function roomFor(env: Bindings, accountId: number, conversationId: number): RoomStub {
  return env.ROOMS.get(
    env.ROOMS.idFromName(`${accountId}:${conversationId}`),
  ) as unknown as RoomStub;
}

/** One feed per account. */
export function feedFor(env: Bindings, accountId: number): FeedStub {
  return env.FEEDS.get(env.FEEDS.idFromName(`account:${accountId}`)) as unknown as FeedStub;
}
