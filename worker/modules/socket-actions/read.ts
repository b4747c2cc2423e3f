import type { Bindings } from "../../env";
import type { ActionReply, SocketIdentity } from "../../realtime/protocol";
import type { RoomConversation } from "../../realtime/room-typing";
import type { SocketRoom } from "../conversation-room/types";
import { markSeenByContact } from "../conversations/service.public";
import { markSeen } from "../conversations/service.seen";
import { refused, senderScope } from "./scope";

/**
 * A `read` frame: the HTTP API's update_last_seen for the sender's side. Unguarded writes read
 * the caller and the conversation row (and check access by them) every time.
 */
export async function markRead(
  room: SocketRoom,
  env: Bindings,
  ref: RoomConversation,
  who: SocketIdentity,
): Promise<ActionReply> {
  try {
    const { scope, caller } = await senderScope(env, room, ref, who, true);
    const current = await caller.conversation(scope.deps);
    await (caller.contactLimitKey === null
      ? markSeen(scope, current, scope.deps.now())
      : markSeenByContact(scope, current));
    await scope.deps.events.flush();
    return null;
  } catch (err) {
    return refused(err, room, ref, who);
  }
}
