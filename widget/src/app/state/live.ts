import { api } from "../api/endpoints";
import type { Conversation, Message, ServerFrame } from "../api/types";
import { agentRead, cursor, loadConversation, status, typing } from "./conversation";
import { flush } from "./outbox";
import { readMark } from "./read-mark";
import { receive } from "./receive";
import { session } from "./session";
import { connect, disconnect, sendTyping } from "./transport";

let typingTimer: ReturnType<typeof setTimeout> | undefined;

/** Longer than the server's 6 s typing TTL: a lost typing.off never leaves the dots forever. */
const TYPING_CLEAR_MS = 8000;

type Typer = { typer?: { type?: string; name?: string }; is_private?: boolean };

/** Applies one server frame to the stores. */
function applyFrame(frame: ServerFrame) {
  cursor.seq = Math.max(cursor.seq, frame.seq);
  const data = frame.data as Record<string, unknown>;
  switch (frame.event) {
    case "ready":
      // Back in touch: anything typed meanwhile goes out now.
      void flush();
      break;
    case "message.created":
    case "message.updated":
      receive([frame.data as Message]);
      break;
    case "typing.on":
    case "typing.off": {
      const { typer, is_private } = data as Typer;
      if (typer?.type === "contact" || is_private) {
        break;
      }
      clearTimeout(typingTimer);
      typing.value = frame.event === "typing.on" ? (typer?.name ?? "") : null;
      typingTimer = setTimeout(() => {
        typing.value = null;
      }, TYPING_CLEAR_MS);
      break;
    }
    case "conversation.status_changed":
      status.value = data.status as Conversation["status"];
      break;
    case "conversation.read":
      if (data.by === "agent") {
        agentRead.value = readMark(data.at, data.seq);
      }
      break;
    case "resync":
      void refresh();
      break;
  }
}

/** HTTP catch-up: polling while the socket is down, and after a `resync`. */
async function refresh() {
  const s = session.value;
  if (!s?.conversationId) {
    return;
  }
  const conversation = await api.conversation(s.sourceId, s.conversationId);
  loadConversation(conversation, receive);
}

export function connectLive() {
  disconnectLive();
  const s = session.value;
  if (!s?.conversationId) {
    return;
  }
  const { sourceId, conversationId } = s;
  connect(() => api.liveUrl(sourceId, conversationId, cursor.seq), applyFrame, refresh);
}

export const disconnectLive = disconnect;

let typingSentAt = 0;
let typingOff: ReturnType<typeof setTimeout> | undefined;

/** The visitor's typing, shown to agents: at most one "on" per 3 s, "off" after a pause. */
export function visitorTyping(active: boolean) {
  clearTimeout(typingOff);
  const now = Date.now();
  if (active && now - typingSentAt < 3000) {
    typingOff = setTimeout(() => visitorTyping(false), 3000);
    return;
  }
  if (!active && typingSentAt === 0) {
    return;
  }
  typingSentAt = active ? now : 0;
  sendTyping(active);
  if (active) {
    typingOff = setTimeout(() => visitorTyping(false), 3000);
  }
}
