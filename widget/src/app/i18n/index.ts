import { computed, signal } from "../state/signal";
import { en, type Key } from "./en";

export { en, type Key };

const LOCALES = ["en", "fr", "es", "ar"] as const;
const RTL = new Set(["ar", "he", "fa", "ur"]);

export const locale = signal("en");
const strings = signal<Record<Key, string>>(en);
export const dir = computed(() => (RTL.has(locale.value) ? "rtl" : "ltr"));

/** A translated string; `{name}` placeholders filled from `vars`. Never HTML. */
export function t(key: Key, vars?: Record<string, string | number>): string {
  const s = strings.value[key] ?? en[key];
  return vars ? s.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? "")) : s;
}

/** The best supported locale for a code like "fr-CA"; English when none fits. */
function pickLocale(code: string | null | undefined): string {
  const lang = (code ?? "").toLowerCase().split(/[-_]/)[0] ?? "";
  return (LOCALES as readonly string[]).includes(lang) ? lang : "en";
}

export async function setLocale(code: string | null | undefined) {
  const lang = pickLocale(code);
  let next: Record<Key, string> = en;
  if (lang !== "en") {
    try {
      const res = await fetch(new URL(`./locales/${lang}.json`, document.baseURI));
      next = { ...en, ...(await res.json()) };
    } catch {
      return;
    }
  }
  strings.value = next;
  locale.value = lang;
}
