// The help center's state and actions; loaded with the chunk, one home per frame.
import { signal } from "../state/signal";
import { browsingHelp, requestFocus, settings } from "../state/ui";
import { type ArticleBody, type ArticleSummary, fetchArticle, searchArticles } from "./api";

export const query = signal("");
/** The listed articles: popular with no query, else the results; null while loading. */
export const articles = signal<ArticleSummary[] | null>(null);
export const article = signal<ArticleBody | null>(null);
export const failed = signal(false);
/** The visitor chose to chat: the home gives way to the conversation. */
export const chatting = signal(false);
/** Which article's button opened it, to give the focus back on Back. */
let openedFrom: string | null = null;
let returnTo: string | null = null;

let seq = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

async function load(q: string) {
  const portal = settings.peek()?.portal;
  if (!portal) {
    return;
  }
  const mine = ++seq;
  try {
    const found = await searchArticles(portal, q);
    // An older query answering late does not overwrite a newer one.
    if (mine === seq) {
      articles.value = found;
      failed.value = false;
    }
  } catch {
    if (mine === seq) {
      failed.value = true;
    }
  }
}

export const loadPopular = () => load("");

/** Typing searches after a short pause, so a word is one request, not one per letter. */
export function search(q: string) {
  query.value = q;
  clearTimeout(timer);
  timer = setTimeout(() => void load(q.trim()), 250);
}

export async function openArticle(slug: string) {
  const portal = settings.peek()?.portal;
  if (!portal) {
    return;
  }
  openedFrom = slug;
  try {
    article.value = await fetchArticle(portal, slug);
    failed.value = false;
  } catch {
    failed.value = true;
  }
}

export function closeArticle() {
  returnTo = openedFrom;
  article.value = null;
}

/** Whether the button of article `slug` takes the focus back (once, right after Back). */
export function returnsFocus(slug: string) {
  const yes = slug === returnTo;
  if (yes) {
    returnTo = null;
  }
  return yes;
}

export function startChatting() {
  article.value = null;
  browsingHelp.value = false;
  chatting.value = true;
  requestFocus();
}
