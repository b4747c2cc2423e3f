/** A piece of message text: plain, or a link whose href is always http(s) or mailto. */
export type Token = { text: string; href?: string };

const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gi;
const TRAILING = /[.,:;!?)\]}'"]+$/;

/** Splits text into plain and link tokens; it never produces markup. */
export function linkify(text: string): Token[] {
  const out: Token[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index ?? 0;
    const raw = match[0].replace(TRAILING, "");
    if (!raw) {
      continue;
    }
    if (start > last) {
      out.push({ text: text.slice(last, start) });
    }
    const href = /^https?:\/\//i.test(raw)
      ? raw
      : /^www\./i.test(raw)
        ? `https://${raw}`
        : `mailto:${raw}`;
    out.push({ text: raw, href });
    last = start + raw.length;
  }
  if (last < text.length) {
    out.push({ text: text.slice(last) });
  }
  return out;
}

/** Only web URLs reach an href or src (never javascript:, data:…). */
export const safeUrl = (url: string | null | undefined) =>
  url && /^https?:\/\//i.test(url) ? url : undefined;
