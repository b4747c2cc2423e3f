// Which of the portal's locales the widget lists articles in.
import type { PublicPortal } from "../../../../worker/modules/inboxes/schema.public";
import { config } from "../config";
import { settings } from "../state/ui";

const base = (code: string) => code.toLowerCase().split(/[-_]/)[0] ?? "";
const same = (a: string, b: string) => a.toLowerCase().replace("-", "_") === b.toLowerCase();

/**
 * The visitor's language when the portal has it ("pt-BR" = "pt_BR" first, then "pt", then any
 * other "pt_…"), in the order the chat picks its own (host's choice, inbox's, page's, browser's),
 * else the portal's default. The widget's own strings may stay English for a language it does
 * not carry, while the articles can still be in the visitor's.
 */
export function articleLocale(
  portal: PublicPortal,
  wanted: (string | null | undefined)[] = [
    config.locale,
    settings.peek()?.locale,
    config.lang,
    ...navigator.languages,
  ],
): string {
  const allowed = portal.allowed_locales ?? [];
  for (const code of wanted) {
    if (code) {
      const hit =
        allowed.find((a) => same(code, a)) ??
        allowed.find((a) => same(base(code), a)) ??
        allowed.find((a) => base(a) === base(code));
      if (hit) {
        return hit;
      }
    }
  }
  return portal.default_locale;
}
