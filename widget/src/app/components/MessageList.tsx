import { useLayoutEffect, useRef } from "preact/hooks";
import { INCOMING, type Message } from "../api/types";
import { t } from "../i18n";
import { loadOlder } from "../state/chat";
import { agentLastSeenAt, hasOlder, messages, pending, typing } from "../state/conversation";
import { settings } from "../state/ui";
import { MessageBubble } from "./MessageBubble";
import { PendingBubble } from "./PendingBubble";
import { TypingIndicator } from "./TypingIndicator";

const senderKey = (m: Message | undefined) =>
  m ? `${m.message_type === INCOMING ? "me" : m.sender?.type}:${m.sender?.id}` : "";

function deliveryOf(m: Message) {
  if (m.status === "failed") {
    return <span class="pw-error">{t("failed")}</span>;
  }
  const read = m.status === "read" || agentLastSeenAt.value >= m.created_at;
  return <span>{t(read ? "read" : "sent")}</span>;
}

/** The conversation as a live log; stays scrolled to the end unless the visitor scrolled up. */
export function MessageList() {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const list = messages.value;
  const queue = pending.value;
  const greeting = settings.value?.greeting_enabled ? settings.value.greeting_message : null;
  let lastOwn = -1;
  list.forEach((m, i) => {
    if (m.message_type === INCOMING) {
      lastOwn = i;
    }
  });

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [list, queue, typing.value]);

  const onScroll = () => {
    const el = scroller.current;
    if (el) {
      pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    }
  };

  return (
    <div class="pw-scroll" ref={scroller} onScroll={onScroll}>
      {hasOlder.value && (
        <button type="button" class="pw-link pw-older" onClick={() => void loadOlder()}>
          {t("earlier")}
        </button>
      )}
      <div role="log" aria-live="polite" aria-label={t("messages")}>
        <ol class="pw-log">
          {greeting && (
            <li class="pw-msg">
              <div class="pw-bubble" dir="auto">
                {greeting}
              </div>
            </li>
          )}
          {list.map((m, i) => (
            <MessageBubble
              key={m.id}
              message={m}
              showSender={senderKey(m) !== senderKey(list[i - 1])}
              footer={i === lastOwn && queue.length === 0 ? deliveryOf(m) : undefined}
            />
          ))}
          {queue.map((p) => (
            <PendingBubble key={p.echo_id} item={p} />
          ))}
        </ol>
      </div>
      <TypingIndicator />
    </div>
  );
}
