import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { ApiError } from "../../lib/errors";
import type { Holder } from "../../realtime/revocation";
import { type Actor, resolveToken } from "../access-tokens/service";
import { callerScope } from "../accounts/scope";
import { feedFor, feedIdFor } from "./stubs";

/** Whose access an agent socket rests on. */
export function holderOfActor(actor: Actor): Holder {
  if (actor.kind === "user") {
    return { kind: "user", id: actor.user.id };
  }
  if (actor.kind === "bot") {
    return { kind: "agent_bot", id: actor.bot.id };
  }
  throw new ApiError("forbidden");
}

/**
 * Step one of opening an agent socket (realtime/revocation.ts): the account's directory tracks
 * it (in `room`, a conversation room's id; null for the feed) and hands out its ticket. The
 * caller's access is read again after this, so a revocation either comes later than that read
 * or reaches the socket by its ticket.
 */
export async function ticketFor(
  env: Bindings,
  accountId: number,
  holder: Holder,
  room: { id: string; inboxId: number } | null,
): Promise<{ ticket: number; directory: string }> {
  const feed = feedFor(env, accountId);
  const ticket = await feed.track(holder, room?.id ?? null, room?.inboxId ?? null, accountId);
  return { ticket, directory: feedIdFor(env, accountId).toString() };
}

/**
 * Step two: who the token names and what they may do in the account, from D1 and not from the
 * isolate's auth cache (which may be seconds behind a revocation made elsewhere).
 */
export async function recheckCaller(db: Db, token: string, accountId: number, holder: Holder) {
  const actor = await resolveToken(db, token);
  if (!actor || actor.kind === "platform" || actor.kind === "contact") {
    throw new ApiError("invalid_token");
  }
  const now = holderOfActor(actor);
  if (now.kind !== holder.kind || now.id !== holder.id) {
    throw new ApiError("invalid_token");
  }
  return { actor, ...(await callerScope(db, actor, accountId)) };
}
