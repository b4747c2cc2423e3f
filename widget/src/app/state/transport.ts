// The conversation's connection, and the one place that chooses between the socket and HTTP:
// every write that can go either way (a message, typing, a read receipt) goes through here, so
// "socket if open, else HTTP" is decided once. It imports no other store with actions (live,
// outbox and receive import it), so the state modules form no import cycle.
import { ApiError } from "../api/client";
import { api } from "../api/endpoints";
import type { Message, ServerFrame } from "../api/types";
import { LiveSocket } from "../realtime/socket";
import { session } from "./session";
import { connection } from "./ui";

let socket: LiveSocket | null = null;

/** Opens the session's conversation socket (the previous one closed first). */
export function connect(
  url: () => string,
  onFrame: (frame: ServerFrame) => void,
  poll: () => Promise<void>,
) {
  disconnect();
  socket = new LiveSocket({
    url,
    onFrame,
    onState: (state) => {
      connection.value = state;
    },
    poll,
  });
  socket.start();
}

export function disconnect() {
  socket?.stop();
  socket = null;
  connection.value = "idle";
}

/**
 * A text message, over the socket when it is open: its ack says it is stored and its
 * message.created frame brings it (null here). Otherwise over HTTP: the stored message. The same
 * echo_id makes a retry over either path find the first one rather than repeat it.
 */
export async function sendText(
  sourceId: string,
  conversationId: number,
  content: string,
  echoId: string,
): Promise<Message | null> {
  const answer = socket?.ask({ type: "message.create", echo_id: echoId, content });
  if (!answer) {
    return api.send(sourceId, conversationId, content, echoId);
  }
  const { event, data } = await answer;
  if (event === "error") {
    throw new ApiError(data.status ?? 500, data.code, data.message, data.retry_after ?? 0);
  }
  return null;
}

/** The visitor's typing, over the socket or HTTP; a lost one is not worth an error. */
export function sendTyping(on: boolean) {
  const s = session.value;
  if (!socket?.send({ type: "typing", on }) && s?.conversationId) {
    void api.typing(s.sourceId, s.conversationId, on).catch(() => {});
  }
}

/** A read receipt, over the socket or HTTP. */
export function sendRead() {
  const s = session.value;
  if (!socket?.send({ type: "read" }) && s?.conversationId) {
    void api.seen(s.sourceId, s.conversationId).catch(() => {});
  }
}
