import { brandColor, textOn } from "../shared/contrast";
import { config } from "./config";
import { extras, needExtras } from "./extras";
import { dir, locale, t } from "./i18n";
import { Conversation } from "./screens/Conversation";
import { startChat } from "./state/chat";
import { messages, pending } from "./state/conversation";
import { session } from "./state/session";
import { helpHome, isOpen, loadError, settings } from "./state/ui";

/** Screen switch from the stores (no router): loading, error, pre-chat form, conversation. */
export function App() {
  const s = settings.value;
  const Help = helpHome.value;
  // The brand colour as it is, with black or white text, whichever reads on it.
  const style = s
    ? { "--pw-color": brandColor(s.widget_color), "--pw-on": textOn(s.widget_color) }
    : {};
  const preChat =
    s?.pre_chat_form_enabled &&
    !session.value &&
    pending.value.length === 0 &&
    messages.value.length === 0;
  // The form is in the interactive chunk: "Loading…" until it lands (a failed load is tried
  // again on the next render).
  const X = extras.value;
  if (preChat) {
    needExtras();
  }
  const PreChatForm = X?.PreChatForm ?? Loading;
  return (
    // <main>: the chat is the frame's one landmark, and its header then no banner of the page.
    <main
      // pw-in: the panel rises into view as it opens (not with reduced motion).
      class={isOpen.value ? "pw pw-in" : "pw"}
      aria-label={t("chat")}
      dir={dir.value}
      lang={locale.value}
      style={style}
      data-theme={config.theme}
    >
      {loadError.value ? (
        <div class="pw-center" role="alert">
          <p>{t("load_error")}</p>
          <button type="button" class="pw-button" onClick={() => void startChat()}>
            {t("try_again")}
          </button>
        </div>
      ) : !s || (s.portal && !Help) ? (
        // An inbox with a help center opens on its home: no flash of the chat before it.
        <Loading />
      ) : Help ? (
        <Help>{preChat ? <PreChatForm /> : <Conversation />}</Help>
      ) : preChat ? (
        <PreChatForm />
      ) : (
        <Conversation />
      )}
    </main>
  );
}

function Loading() {
  return (
    <p class="pw-center" role="status">
      {t("loading")}
    </p>
  );
}
