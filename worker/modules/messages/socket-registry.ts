import type { Bindings } from "../../env";
import type { ActionFrame, ActionReply, SocketIdentity } from "../../realtime/protocol";
import type { Holder } from "../../realtime/revocation";
import type { RoomConversation } from "../../realtime/room-typing";
import type { SocketRoom } from "./room-types";

/** Handles a message or read frame a room received (modules/messages/socket-actions.ts). */
export type SocketActionHandler = (
  room: SocketRoom,
  env: Bindings,
  conversation: RoomConversation,
  who: SocketIdentity,
  action: ActionFrame,
) => Promise<ActionReply>;

const unwired: SocketActionHandler = async () => ({
  event: "error",
  data: { code: "unsupported", message: "socket actions are not wired", status: 501 },
});

// Isolate-level on purpose, as events/registry.ts: set once by worker/wiring.ts. The room cannot
// import the handler itself: the handler uses the message service, which uses the room.
let handler: SocketActionHandler = unwired;

/** Forgets what the handler cached about holders whose access was revoked (null: everyone). */
export type SocketCallerForget = (conversation: RoomConversation, holders: Holder[] | null) => void;
let forget: SocketCallerForget = () => undefined;

export function registerSocketActions(h: SocketActionHandler, f?: SocketCallerForget): void {
  handler = h;
  forget = f ?? forget;
}

export const socketActions = (): SocketActionHandler => handler;
export const socketCallerForget = (): SocketCallerForget => forget;
