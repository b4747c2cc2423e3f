import type { ComponentChildren } from "preact";
import { ACTIVITY, INCOMING, type Message } from "../api/types";
import { locale, t } from "../i18n";
import { formatTime } from "../lib/format";
import { AttachmentView } from "./AttachmentView";
import { Avatar } from "./Avatar";
import { RichText } from "./RichText";

type Props = {
  message: Message;
  /** First of a run of messages by the same sender: show who wrote it. */
  showSender: boolean;
  /** Delivery state under the visitor's message. */
  footer?: ComponentChildren;
};

export function MessageBubble({ message, showSender, footer }: Props) {
  if (message.message_type === ACTIVITY) {
    return (
      <li class="pw-activity">
        <RichText text={message.content ?? ""} />
      </li>
    );
  }
  const own = message.message_type === INCOMING;
  const sender = message.sender?.name || t("someone");
  const time = formatTime(message.created_at, locale.value);
  return (
    <li class={own ? "pw-msg pw-own" : "pw-msg"}>
      {!own && showSender && (
        <div class="pw-sender">
          <Avatar name={sender} url={message.sender?.avatar_url} />
          <span>{sender}</span>
        </div>
      )}
      <div class="pw-bubble" dir="auto">
        {/* Screen readers hear who wrote it even when the name is not shown. */}
        <span class="pw-sr">{own ? t("you") : sender}: </span>
        {message.content && <RichText text={message.content} />}
        {message.attachments.map((a) => (
          <AttachmentView key={a.id} attachment={a} />
        ))}
      </div>
      <div class="pw-meta">
        <time dateTime={new Date(message.created_at * 1000).toISOString()}>{time}</time>
        {footer}
      </div>
    </li>
  );
}
