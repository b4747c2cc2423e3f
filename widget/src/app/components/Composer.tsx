import { t } from "../i18n";
import { visitorTyping } from "../state/live";
import { queueFile, queueText } from "../state/outbox";
import { effect, signal } from "../state/signal";
import { focusRequest } from "../state/ui";
import { Icon } from "./Icon";

// One composer at a time: its state lives here, in signals, not in hooks (preact/hooks would
// cost about 1 KB of the open chat's budget).
const draft = signal("");
const input: { current?: HTMLTextAreaElement | null } = {};
const picker: { current?: HTMLInputElement | null } = {};

effect(() => {
  if (focusRequest.value > 0) {
    input.current?.focus();
  }
});

/** Shown after the chat was opened (and focus asked for): take the focus once it is on screen. */
const bindInput = (el: HTMLTextAreaElement | null) => {
  if (el && !input.current && focusRequest.peek() > 0) {
    queueMicrotask(() => el.focus());
  }
  input.current = el;
};

/** Enter sends, Shift+Enter breaks the line; the visitor's typing is shown to agents. */
export function Composer() {
  const text = draft.value;
  const setText = (value: string) => {
    draft.value = value;
  };

  const grow = () => {
    const el = input.current;
    if (el) {
      el.style.height = "auto";
      el.style.height = `${Math.min(el.scrollHeight, 120)}px`;
    }
  };

  const send = () => {
    // What is typed now, not as of the last render (Enter can come first).
    const text = draft.value;
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
        ref={bindInput}
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
        ref={(el) => {
          picker.current = el;
        }}
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
