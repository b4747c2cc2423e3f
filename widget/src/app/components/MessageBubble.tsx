import type { ComponentChildren } from "preact";
import { ACTIVITY, INCOMING, type Message } from "../api/types";
import { extras, needExtras } from "../extras";
import { locale, t } from "../i18n";
import { formatTime } from "../lib/format";
import { settings } from "../state/ui";
import { AttachmentView } from "./AttachmentView";
import { Avatar } from "./Avatar";
import { RichText } from "./RichText";

type Props = {
  message: Message;
  /** First of a run of messages by the same sender: show who wrote it. */
  showSender: boolean;
  /** Last of the run: its time, and the agent's avatar beside it (one per run, as in chat apps). */
  last: boolean;
  /** Delivery state under the visitor's message. */
  footer?: ComponentChildren;
};

export function MessageBubble({ message, showSender, last, footer }: Props) {
  if (message.message_type === ACTIVITY) {
    return (
      <li class="pw-activity">
        <RichText text={message.content ?? ""} />
      </li>
    );
  }
  const own = message.message_type === INCOMING;
  // The inbox's own messages (templates: the CSAT survey, …) have no sender: the inbox speaks.
  const sender = message.sender?.name || settings.value?.name || t("someone");
  // A bot's or agent's prompt (buttons, a form, cards, CSAT …) gets its controls from the
  // interactive chunk, loaded on the first such message; its text shows meanwhile.
  const prompt = !own && message.content_type !== "text";
  const X = prompt ? extras.value : null;
  if (prompt) {
    needExtras();
  }
  return (
    <li class={own ? "pw-msg pw-own" : "pw-msg"}>
      {/* The bubble's hidden prefix names the sender for screen readers: once, not twice. */}
      {!own && showSender && (
        <span class="pw-sender" aria-hidden="true">
          {sender}
        </span>
      )}
      <div class="pw-bubble" dir="auto">
        {/* Its own dir: the bubble's dir="auto" then follows the message, not this prefix. */}
        <span class="pw-sr" dir="auto">
          {own ? t("you") : sender}:{" "}
        </span>
        {message.content && <RichText text={message.content} markdown={!own} />}
        {message.attachments.map((a) => (
          <AttachmentView key={a.id} attachment={a} />
        ))}
      </div>
      {X && <X.Prompt message={message} />}
      {(last || footer) && (
        <div class="pw-meta">
          {!own && <Avatar name={sender} url={message.sender?.avatar_url} />}
          <time dateTime={new Date(message.created_at * 1000).toISOString()}>
            {formatTime(message.created_at, locale.value)}
          </time>
          {footer}
        </div>
      )}
    </li>
  );
}
