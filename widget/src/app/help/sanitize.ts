/**
 * Article HTML, already sanitised by the server, is still treated as hostile here: it is parsed
 * in an inert document (DOMParser runs no script and loads nothing) and only an allow-list of
 * elements and attributes is rebuilt in the frame. Nothing of the parsed tree is adopted.
 */

/** Elements kept (their children are cleaned too); anything else is unwrapped to its content. */
const KEEP = new Set(
  "p br h1 h2 h3 h4 h5 h6 ul ol li a strong b em i u s del mark code pre blockquote hr img table thead tbody tfoot tr th td sup sub figure figcaption span div".split(
    " ",
  ),
);
/** Elements dropped with everything inside them. */
const DROP = new Set(
  "script style template iframe frame frameset object embed applet svg math noscript xmp noembed form input button textarea select link meta base title".split(
    " ",
  ),
);
/** Attributes kept, per element (urls are checked apart). */
const ATTRS: Record<string, string[]> = {
  a: ["href", "title"],
  img: ["src", "alt", "title", "width", "height"],
  th: ["colspan", "rowspan", "scope"],
  td: ["colspan", "rowspan"],
  ol: ["start"],
};

/** Only web addresses (and mail links) survive; relative ones resolve against the frame. */
function safeHref(value: string, mail: boolean): string | null {
  try {
    const url = new URL(value, location.href);
    return url.protocol === "https:" ||
      url.protocol === "http:" ||
      (mail && url.protocol === "mailto:")
      ? url.href
      : null;
  } catch {
    return null;
  }
}

function copy(node: Node, doc: Document): Node[] {
  if (node.nodeType === Node.TEXT_NODE) {
    return [doc.createTextNode(node.textContent ?? "")];
  }
  if (node.nodeType !== Node.ELEMENT_NODE) {
    return [];
  }
  const source = node as Element;
  const tag = source.localName;
  if (DROP.has(tag) || source.namespaceURI !== "http://www.w3.org/1999/xhtml") {
    return [];
  }
  const children = [...source.childNodes].flatMap((child) => copy(child, doc));
  if (!KEEP.has(tag)) {
    return children;
  }
  // The frame's title is the h1 and the article's the h2: the article's own headings go below.
  const el = doc.createElement(tag === "h1" || tag === "h2" ? "h3" : tag);
  for (const name of ATTRS[tag] ?? []) {
    const value = source.getAttribute(name);
    if (value === null) {
      continue;
    }
    const url = name === "href" || name === "src" ? safeHref(value, name === "href") : value;
    if (url !== null) {
      el.setAttribute(name, url);
    }
  }
  if (tag === "a") {
    el.setAttribute("target", "_blank");
    el.setAttribute("rel", "noopener noreferrer nofollow");
  }
  if (tag === "img") {
    el.setAttribute("loading", "lazy");
    el.setAttribute("alt", source.getAttribute("alt") ?? "");
  }
  if (tag === "pre") {
    // A code block scrolls sideways: keyboard users reach it with Tab (axe: scrollable-region-
    // focusable), and its first line starts at the margin (a newline after <code> is dropped, as
    // HTML drops one after <pre>).
    el.setAttribute("tabindex", "0");
    const first = children[0]?.firstChild ?? children[0];
    if (first?.nodeType === Node.TEXT_NODE) {
      first.textContent = (first.textContent ?? "").replace(/^\r?\n/, "");
    }
  }
  el.append(...children);
  return [el];
}

/** The article's HTML as a fragment of the frame's document, built from the allow-list only. */
export function cleanArticle(html: string, doc: Document = document): DocumentFragment {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  const out = doc.createDocumentFragment();
  out.append(...[...parsed.body.childNodes].flatMap((n) => copy(n, doc)));
  return out;
}
