import type { SocketActions } from "../conversation-room/types";
import { forgetCallers } from "./caller";
import { markRead } from "./read";
import { sendMessage } from "./send";

/**
 * What a conversation's room does with its sockets' `message.create` and `read` frames, given to
 * it when it is built (worker/index.ts).
 */
export const socketActions: SocketActions = {
  message: sendMessage,
  read: markRead,
  forget: forgetCallers,
};
