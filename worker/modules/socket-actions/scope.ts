import type { Bindings } from "../../env";
import { createDeps } from "../../events/deps";
import { ApiError } from "../../lib/errors";
import { createLogger } from "../../lib/logger";
import { errorFrame, type SocketIdentity } from "../../realtime/protocol";
import type { RoomConversation } from "../../realtime/room-typing";
import { performerOf } from "../access-tokens/service";
import type { SocketRoom } from "../conversation-room/types";
import type { MessageScope } from "../messages/service";
import { cachedCaller, forgetCaller, type SocketCaller, socketCaller } from "./caller";

/**
 * A frame's sender as the HTTP API would see them: the same scope (account, actor, role, who
 * performed it), with the room to append through (which checks, when the message commits, that
 * no revocation reached the room since the frame arrived). `fresh`: the caller read again
 * (read receipts) instead of the cached one.
 */
export async function senderScope(
  env: Bindings,
  room: SocketRoom,
  ref: RoomConversation,
  who: SocketIdentity,
  fresh: boolean,
): Promise<{ scope: MessageScope; caller: SocketCaller }> {
  const log = createLogger({ source: "socket", conversation_id: ref.id });
  const deps = createDeps(env, { origin: who.origin ?? "", log });
  const caller = await (fresh ? socketCaller(deps, ref, who) : cachedCaller(deps, ref, who));
  const scope: MessageScope = {
    deps: { ...deps, performedBy: performerOf(caller.actor) },
    account: caller.account,
    actor: caller.actor,
    role: caller.role,
    origin: who.origin ?? "",
    room,
  };
  return { scope, caller };
}

/**
 * A frame that failed: the HTTP API's error body as a frame (nothing was stored). A refusal of
 * the write's own check means the caches were wrong: nothing cached is trusted again.
 */
export function refused(
  err: unknown,
  room: SocketRoom,
  ref: RoomConversation,
  who: SocketIdentity,
  echoId?: string,
) {
  if (err instanceof ApiError && err.code === "not_found") {
    forgetCaller(ref, who);
    room.forgetConversation();
  }
  if (!(err instanceof ApiError)) {
    createLogger({ source: "socket", conversation_id: ref.id }).error("socket frame failed", {
      error: err,
    });
  }
  return errorFrame(err instanceof ApiError ? err : new ApiError("internal_error"), echoId);
}
