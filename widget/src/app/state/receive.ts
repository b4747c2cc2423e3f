import { INCOMING, type Message } from "../api/types";
import { notifyHost } from "../bridge";
import { mergeMessages, messages, typing } from "./conversation";
import { sendRead } from "./transport";
import { isOpen, unread } from "./ui";

let seenTimer: ReturnType<typeof setTimeout> | undefined;

/** Tells the API the visitor has read the conversation (debounced). */
export function markSeen() {
  clearTimeout(seenTimer);
  seenTimer = setTimeout(sendRead, 500);
}

/** Messages from the socket, a poll or a send: new ones reach the host and the unread count. */
export function receive(list: Message[]) {
  const known = new Set(messages.value.map((m) => m.id));
  const fresh = list.filter((m) => !known.has(m.id));
  mergeMessages(list);
  for (const m of fresh) {
    notifyHost({
      type: "message",
      payload: {
        id: m.id,
        content: m.content,
        message_type: m.message_type,
        created_at: m.created_at,
        sender: m.sender ? { name: m.sender.name, type: m.sender.type } : null,
      },
    });
    if (m.message_type !== INCOMING) {
      typing.value = null;
      if (isOpen.value && !document.hidden) {
        markSeen();
      } else {
        unread.value++;
      }
    }
  }
}
