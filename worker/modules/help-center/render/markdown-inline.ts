import { esc, isExternal, safeUrl } from "./escape";

/**
 * Inline markdown (CommonMark's common cases plus GFM strikethrough and autolinks) rendered
 * escape-first: the text is HTML-escaped before any markup is added, so raw HTML in an
 * article is shown as text, never parsed. Finished pieces (code spans, links) are parked
 * behind private-use placeholders so later rules cannot reach into them.
 */
const OPEN = "\uE010";
const CLOSE = "\uE011";

export function renderInline(source: string): string {
  const parked: string[] = [];
  const park = (html: string) => `${OPEN}${parked.push(html) - 1}${CLOSE}`;
  let text = source.replace(/[\uE000-\uF8FF]/g, "");

  // Code spans first: nothing inside them is markdown.
  text = text.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_, _ticks, code: string) =>
    park(`<code>${esc(code.replace(/^ (.+) $/, "$1"))}</code>`),
  );
  // Backslash escapes.
  text = text.replace(/\\([!-/:-@[-`{-~])/g, (_, ch: string) => park(esc(ch)));
  // Autolinks <https://…>, before escaping turns < into &lt;.
  text = text.replace(/<((?:https?:\/\/|mailto:)[^\s<>]+)>/gi, (_, url: string) =>
    park(anchor(url, esc(url))),
  );
  text = esc(text);
  // Images and links: ![alt](url "title") / [text](url "title"); `=WxH` after the url sizes an image.
  text = text.replace(
    /(!?)\[((?:[^\]\\]|\\.)*)\]\(\s*(?:&lt;(.*?)&gt;|([^\s)]+))(?:\s+=(\d{1,5})x(\d{1,5}))?(?:\s+(?:&quot;(.*?)&quot;|&#39;(.*?)&#39;))?\s*\)/g,
    (_all, bang: string, label: string, angled, plain, w, h, t1, t2) => {
      const url = safeUrl(unescapeEntities(angled ?? plain ?? ""));
      const title = t1 ?? t2;
      if (url === null) {
        return park(emphasis(label));
      }
      if (bang) {
        const size = w && h ? ` width="${w}" height="${h}"` : "";
        const tip = title ? ` title="${title}"` : "";
        return park(
          `<img src="${esc(url)}" alt="${label}"${size}${tip} loading="lazy" decoding="async">`,
        );
      }
      return park(anchor(url, emphasis(label), title));
    },
  );
  // Bare URLs (GFM autolink literals).
  text = text.replace(/\bhttps?:\/\/[^\s<>"]*[^\s<>".,;:!?)'*_]/g, (url) =>
    park(anchor(unescapeEntities(url), url)),
  );
  text = emphasis(text);
  // Hard line breaks: two trailing spaces or a backslash.
  text = text.replace(/( {2,}|\\)\n/g, "<br>\n");
  return text.replace(new RegExp(`${OPEN}(\\d+)${CLOSE}`, "g"), (_, i: string) =>
    restore(parked[Number(i)] ?? "", parked),
  );
}

function restore(html: string, parked: string[]): string {
  return html.replace(new RegExp(`${OPEN}(\\d+)${CLOSE}`, "g"), (_, i: string) =>
    restore(parked[Number(i)] ?? "", parked),
  );
}

function emphasis(text: string): string {
  return text
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "<strong>$2</strong>")
    .replace(/(^|[^\w*])\*(?=\S)([\s\S]*?\S)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/(^|[^\w])_(?=\S)([\s\S]*?\S)_(?!\w)/g, "$1<em>$2</em>")
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, "<del>$1</del>");
}

function anchor(url: string, html: string, title?: string): string {
  const safe = safeUrl(url);
  if (safe === null) {
    return html;
  }
  const rel = isExternal(safe) ? ' rel="noopener noreferrer nofollow"' : "";
  const tip = title ? ` title="${title}"` : "";
  return `<a href="${esc(safe)}"${tip}${rel}>${html}</a>`;
}

const unescapeEntities = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
