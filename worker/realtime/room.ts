import type { Bindings } from "../env";

/** The one place room names are made: one room per conversation, keyed by account and id. */
export function roomFor(env: Bindings, accountId: number, conversationId: number) {
  return env.ROOMS.get(env.ROOMS.idFromName(`${accountId}:${conversationId}`));
}
