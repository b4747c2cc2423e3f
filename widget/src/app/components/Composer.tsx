import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../i18n";
import { visitorTyping } from "../state/live";
import { queueFile, queueText } from "../state/outbox";
import { effect } from "../state/signal";
import { focusRequest } from "../state/ui";
import { Icon } from "./Icon";

/** Enter sends, Shift+Enter breaks the line; the visitor's typing is shown to agents. */
export function Composer() {
  const [text, setText] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);

  useEffect(
    () =>
      effect(() => {
        if (focusRequest.value > 0) {
          input.current?.focus();
        }
      }),
    [],
  );

  const grow = () => {
    const el = input.current;
    if (el) {
      el.style.height = "auto";
      el.style.height = `${Math.min(el.scrollHeight, 120)}px`;
    }
  };

  const send = () => {
    if (!text.trim()) {
      return;
    }
    queueText(text);
    setText("");
    visitorTyping(false);
    requestAnimationFrame(grow);
  };

  return (
    <form
      class="pw-composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label class="pw-sr" for="pw-input">
        {t("message")}
      </label>
      <textarea
        id="pw-input"
        ref={input}
        rows={1}
        dir="auto"
        maxLength={10000}
        value={text}
        placeholder={t("placeholder")}
        onInput={(e) => {
          setText(e.currentTarget.value);
          grow();
          visitorTyping(e.currentTarget.value.trim() !== "");
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send();
          }
        }}
      />
      <input
        ref={picker}
        type="file"
        class="pw-sr"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) {
            queueFile(file);
          }
          e.currentTarget.value = "";
        }}
      />
      <button
        type="button"
        class="pw-icon"
        aria-label={t("attach")}
        onClick={() => picker.current?.click()}
      >
        <Icon name="attach" />
      </button>
      <button type="submit" class="pw-icon pw-send" aria-label={t("send")} disabled={!text.trim()}>
        <Icon name="send" />
      </button>
    </form>
  );
}
