import type { Bindings } from "../../env";
import type { SocketIdentity } from "../../realtime/protocol";
import type { RoomConversation } from "../../realtime/room-typing";
import { markSeenByContact } from "../conversations/service.public";
import { markSeen } from "../conversations/service.seen";
import { senderScope } from "./send";
import { resolveSender } from "./sender";

/**
 * A `read` frame: the HTTP API's update_last_seen for the sender's side. Unguarded writes read
 * the sender and the conversation row (and check access by them) every time.
 */
export async function markRead(
  env: Bindings,
  ref: RoomConversation,
  who: SocketIdentity,
): Promise<void> {
  const sender = await resolveSender(env, ref, who);
  const scope = senderScope(env, ref, who, sender);
  const current = await sender.conversation(scope.deps);
  await (sender.contactLimitKey === null
    ? markSeen(scope, current, scope.deps.now())
    : markSeenByContact(scope, current));
  await scope.deps.events.flush();
}
