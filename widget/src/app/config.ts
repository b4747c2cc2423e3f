/** What the loader put in the iframe URL's hash (the server never sees it). */
export type Config = {
  inbox: string;
  /** The host page's origin; null when the chat is opened on its own, outside an iframe. */
  parentOrigin: string | null;
  /** A locale the host asked for (parleySettings.locale or setLocale). */
  locale: string | null;
  /** The host page's language, then the browser's. */
  lang: string;
  /** "light" or "dark" from data-theme on the script tag; otherwise the system's scheme. */
  theme?: string;
};

export const config: Config = {
  inbox: "",
  parentOrigin: null,
  locale: null,
  lang: "en",
};

export function configure(hash: string, fallbackLang: string) {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  config.inbox = p.get("inbox") ?? "";
  config.parentOrigin = p.get("origin");
  config.locale = p.get("locale");
  config.lang = p.get("lang") || fallbackLang;
  config.theme = p.get("theme") ?? undefined;
}

/** Embedded in a host page (as opposed to opened as a page of its own). */
export const embedded = () => config.parentOrigin !== null && window.parent !== window;
