import type { ComponentChildren } from "preact";
import { Header } from "../components/Header";
import { messages, pending } from "../state/conversation";
import { effect } from "../state/signal";
import { browsingHelp, focusRequest, settings } from "../state/ui";
import { installStyles } from "../styles/install";
import { Article } from "./Article";
import css from "./help.css?inline";
import { ht } from "./i18n";
import {
  article,
  articles,
  chatting,
  failed,
  loadPopular,
  openArticle,
  query,
  returnsFocus,
  search,
  startChatting,
} from "./state";

installStyles(css);
void loadPopular();

const input: { current?: HTMLInputElement | null } = {};
// Opening the chat on its home puts the visitor in the search box (as it does in the composer).
effect(() => {
  if (focusRequest.value > 0 && !chatting.peek()) {
    input.current?.focus();
  }
});

/** Back from an article: the focus returns to the button that opened it. */
const bindArticleButton = (slug: string) => (el: HTMLButtonElement | null) => {
  if (el && returnsFocus(slug)) {
    queueMicrotask(() => el.focus());
  }
};

/** Shown after the chat was opened (focus asked for): the search box takes it once on screen. */
const bindInput = (el: HTMLInputElement | null) => {
  if (el && !input.current && focusRequest.peek() > 0) {
    queueMicrotask(() => el.focus());
  }
  input.current = el;
};

/**
 * The help center's home for an inbox with a portal: search, popular articles, an article
 * inside the chat, and the way to the conversation (`children`), which a visitor with a
 * conversation going on (or an inbox whose portal was unlinked since) sees at once.
 */
export function Home({ children }: { children?: ComponentChildren }) {
  const gone = !settings.value?.portal;
  const talking = messages.value.length > 0 || pending.value.length > 0;
  // A conversation going on shows at once, until the visitor goes back to the articles.
  if (gone || ((chatting.value || talking) && !browsingHelp.value)) {
    return <>{children}</>;
  }
  if (article.value) {
    return <Article article={article.value} />;
  }
  const list = articles.value;
  const q = query.value.trim();
  return (
    <>
      <Header />
      <div class="pw-scroll pw-help">
        <label for="pw-help-q" class="pw-sr">
          {ht("help_search")}
        </label>
        <input
          id="pw-help-q"
          type="search"
          value={query.value}
          placeholder={ht("help_search_placeholder")}
          autoComplete="off"
          ref={bindInput}
          onInput={(e) => search(e.currentTarget.value)}
        />
        <h2 id="pw-help-list">{ht(q ? "help_results" : "help_popular")}</h2>
        {failed.value ? (
          <p role="alert">{ht("help_error")}</p>
        ) : !list ? (
          <p role="status">{ht("help_loading")}</p>
        ) : list.length === 0 ? (
          <p role="status">{ht("help_none")}</p>
        ) : (
          <ul class="pw-articles" aria-labelledby="pw-help-list">
            {list.map((a) => (
              <li key={a.slug}>
                <button
                  type="button"
                  ref={bindArticleButton(a.slug)}
                  onClick={() => void openArticle(a.slug)}
                >
                  <b dir="auto">{a.title}</b>
                  {a.description && <span dir="auto">{a.description}</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div class="pw-help-foot">
        <button type="button" class="pw-button" onClick={startChatting}>
          {ht(talking ? "help_back_chat" : "help_chat")}
        </button>
      </div>
    </>
  );
}
