import { INCOMING, type Message } from "../api/types";
import { locale, t } from "../i18n";
import { loadOlder } from "../state/chat";
import { agentRead, hasOlder, messages, pending } from "../state/conversation";
import { covers } from "../state/read-mark";
import { MessageBubble } from "./MessageBubble";
import { PendingBubble } from "./PendingBubble";
import { TypingIndicator } from "./TypingIndicator";

const day = (m: Message | undefined) => m && new Date(m.created_at * 1000).toDateString();

/** Who wrote it, and on which day: a run of messages shares one sender, one day. */
const senderKey = (m: Message | undefined) =>
  m ? `${m.message_type === INCOMING ? "me" : m.sender?.type}:${m.sender?.id}:${day(m)}` : "";

function deliveryOf(m: Message) {
  if (m.status === "failed") {
    return <span class="pw-error">{t("failed")}</span>;
  }
  const read = m.status === "read" || covers(agentRead.value, m);
  return <span>{t(read ? "read" : "sent")}</span>;
}

// One list at a time: where it is and whether it follows the end (no preact/hooks needed).
const scroller: { current?: HTMLDivElement | null } = {};
let pinned = true;
/** Where the list last put itself: a scroll event that is not above it is not the visitor's. */
let placedAt = 0;

const toEnd = () => {
  const el = scroller.current;
  if (el && pinned) {
    el.scrollTop = el.scrollHeight;
    placedAt = el.scrollTop;
  }
};
/**
 * Content that grows after its render (an image that loads, a card that appears below and
 * shrinks the list, a font) keeps the newest message in view while the visitor is at the end:
 * the observer runs after layout, before paint.
 */
const follow = new ResizeObserver(toEnd);
const bindScroller = (el: HTMLDivElement | null) => {
  if (el !== scroller.current) {
    follow.disconnect();
    scroller.current = el;
    if (el) {
      follow.observe(el);
      follow.observe(el.firstElementChild as Element);
    }
  }
};

// The scroll event of the list's own move can arrive after content below grew (an image that
// loaded) and before the observer follows it: only a move up from where the list put itself
// (the visitor's) lets go of the end.
const onScroll = () => {
  const el = scroller.current;
  if (el) {
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    pinned = atEnd || (pinned && el.scrollTop >= placedAt - 1);
  }
};

/** The conversation as a live log; stays scrolled to the end unless the visitor scrolled up. */
export function MessageList() {
  const list = messages.value;
  const queue = pending.value;
  let lastOwn = -1;
  list.forEach((m, i) => {
    if (m.message_type === INCOMING) {
      lastOwn = i;
    }
  });

  // After this render is in the DOM (before paint): stay at the end while pinned there.
  queueMicrotask(toEnd);

  return (
    <div class="pw-scroll" ref={bindScroller} onScroll={onScroll}>
      {/* Everything that scrolls, in one box the observer watches grow. */}
      <div>
        {hasOlder.value && (
          <button type="button" class="pw-link pw-older" onClick={() => void loadOlder()}>
            {t("earlier")}
          </button>
        )}
        <div role="log" aria-live="polite" aria-label={t("messages")}>
          <ol class="pw-log">
            {list.map((m, i) => [
              day(m) !== day(list[i - 1]) && (
                <li key={day(m)} class="pw-activity">
                  {new Date(m.created_at * 1000).toLocaleDateString(locale.value, {
                    month: "long",
                    day: "numeric",
                  })}
                </li>
              ),
              <MessageBubble
                key={m.id}
                message={m}
                showSender={senderKey(m) !== senderKey(list[i - 1])}
                last={senderKey(m) !== senderKey(list[i + 1])}
                footer={i === lastOwn && queue.length === 0 ? deliveryOf(m) : undefined}
              />,
            ])}
            {queue.map((p) => (
              <PendingBubble key={p.echo_id} item={p} />
            ))}
          </ol>
        </div>
        <TypingIndicator />
      </div>
    </div>
  );
}
