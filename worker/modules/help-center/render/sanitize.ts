import { isExternal, safeUrl } from "./escape";

/** Elements an article may hold, and the attributes each may keep. */
const ALLOWED: Record<string, readonly string[]> = {
  p: [],
  br: [],
  hr: [],
  h1: ["id"],
  h2: ["id"],
  h3: ["id"],
  h4: ["id"],
  h5: ["id"],
  h6: ["id"],
  ul: [],
  ol: ["start"],
  li: [],
  blockquote: [],
  pre: [],
  code: ["class"],
  em: [],
  strong: [],
  del: [],
  mark: [],
  a: ["href", "title", "rel"],
  img: ["src", "alt", "title", "width", "height", "loading", "decoding"],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ["class"],
  td: ["class"],
};

/** Dropped with everything inside them; any other unknown element keeps only its text. */
const DROP_WITH_CONTENT = new Set([
  "script",
  "style",
  "iframe",
  "object",
  "embed",
  "template",
  "noscript",
  "svg",
  "math",
  "textarea",
  "title",
  "frameset",
  "frame",
  "xmp",
  "noembed",
  "plaintext",
]);

const VALUE_RULES: Record<string, RegExp> = {
  id: /^[\p{L}\p{N}-]{1,200}$/u,
  class: /^(language-[\w+#-]{1,40}|a-(left|right|center))$/,
  start: /^\d{1,9}$/,
  width: /^\d{1,5}$/,
  height: /^\d{1,5}$/,
  loading: /^lazy$/,
  decoding: /^async$/,
  rel: /^noopener noreferrer nofollow$/,
};

/**
 * The allow-list sanitiser every rendered article goes through, on the Workers runtime's
 * streaming HTML parser (HTMLRewriter: the browser's own tokenising rules, no bundle bytes).
 * The markdown renderer already escapes what it does not build; this pass makes sure that a
 * bug there still cannot put a script, an event handler or a javascript:/data: URL on a page.
 */
export async function sanitizeHtml(html: string): Promise<string> {
  const rewriter = new HTMLRewriter().on("*", {
    element(el) {
      const tag = el.tagName.toLowerCase();
      const allowed = ALLOWED[tag];
      if (!allowed) {
        if (DROP_WITH_CONTENT.has(tag)) {
          el.remove();
        } else {
          el.removeAndKeepContent();
        }
        return;
      }
      for (const [name = "", value = ""] of [...el.attributes]) {
        const rule = VALUE_RULES[name];
        const keep =
          allowed.includes(name) &&
          (rule ? rule.test(value) : true) &&
          ((name !== "href" && name !== "src") || safeUrl(value) === value.trim());
        if (!keep) {
          el.removeAttribute(name);
        }
      }
      if (tag === "a") {
        const href = el.getAttribute("href");
        if (href && isExternal(href)) {
          el.setAttribute("rel", "noopener noreferrer nofollow");
        }
      }
      if (tag === "pre" || tag === "table") {
        // They scroll sideways on a phone: reachable from the keyboard (axe's
        // scrollable-region-focusable), whatever the markup said.
        el.setAttribute("tabindex", "0");
      }
      if (tag === "img") {
        el.setAttribute("loading", "lazy");
        el.setAttribute("decoding", "async");
      }
    },
    comments(comment) {
      comment.remove();
    },
  });
  return rewriter
    .transform(new Response(html, { headers: { "content-type": "text/html" } }))
    .text();
}
