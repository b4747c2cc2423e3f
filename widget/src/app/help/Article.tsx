import { Header } from "../components/Header";
import type { ArticleBody } from "./api";
import { ht } from "./i18n";
import { cleanArticle } from "./sanitize";
import { closeArticle, startChatting } from "./state";

/** Fills the article's body once per article element (it is keyed by slug). */
const fill = (html: string) => (el: HTMLElement | null) => {
  if (el && !el.hasChildNodes()) {
    el.append(cleanArticle(html));
  }
};

/** The title takes the focus when the article opens, so reading starts there. */
const focusTitle = (el: HTMLElement | null) => {
  if (el && !el.dataset.focused) {
    el.dataset.focused = "1";
    queueMicrotask(() => el.focus());
  }
};

/** One article inside the chat: Back, the title, the sanitised body, a way on to the chat. */
export function Article({ article }: { article: ArticleBody }) {
  return (
    <>
      <Header />
      <div class="pw-scroll pw-help" key={article.slug}>
        <button type="button" class="pw-link pw-back" onClick={closeArticle}>
          <span class="pw-flip" aria-hidden="true">
            ←
          </span>
          {ht("help_back")}
        </button>
        <article aria-labelledby="pw-article-title">
          <h2 id="pw-article-title" tabIndex={-1} ref={focusTitle} dir="auto">
            {article.title}
          </h2>
          <div class="pw-article" dir="auto" ref={fill(article.html)} />
        </article>
        <p>
          <a href={article.url} target="_blank" rel="noopener noreferrer" class="pw-link">
            {ht("help_open_full")}
          </a>
        </p>
        <div class="pw-card pw-still">
          <b>{ht("help_still")}</b>
          <button type="button" class="pw-button" onClick={startChatting}>
            {ht("help_chat")}
          </button>
        </div>
      </div>
    </>
  );
}
