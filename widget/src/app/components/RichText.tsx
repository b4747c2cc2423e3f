import type { ComponentChildren } from "preact";
import { linkify } from "../lib/linkify";

const A = { target: "_blank", rel: "noopener noreferrer nofollow" };

/** Plain text with its URLs and emails as links. */
const links = (text: string) =>
  linkify(text).map((token) =>
    token.href ? (
      <a href={token.href} {...A}>
        {token.text}
      </a>
    ) : (
      token.text
    ),
  );

/**
 * Agents' markdown, a tight subset: **bold**, *italic* or _italic_, `code`, [label](https URL),
 * and "- " / "* " list items as bullets. Intraword underscores (snake_case) stay text.
 */
const MD = /\*\*(.+?)\*\*|\*(.+?)\*|\b_([^_]+)_\b|`([^`]+)`|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;

/**
 * Message text as text nodes: no HTML is ever interpreted, whoever wrote it. Agents' messages
 * (`markdown`) also get the subset above, as elements built here, never parsed markup.
 */
export function RichText({ text, markdown }: { text: string; markdown?: boolean }) {
  if (!markdown) {
    return <>{links(text)}</>;
  }
  const source = text.replace(/^[-*] /gm, "• ");
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of source.matchAll(MD)) {
    const [all, bold, star, under, code, label, href] = m;
    out.push(links(source.slice(last, m.index)));
    out.push(
      bold ? (
        <b>{bold}</b>
      ) : code ? (
        <code>{code}</code>
      ) : href ? (
        <a href={href} {...A}>
          {label}
        </a>
      ) : (
        <i>{star ?? under}</i>
      ),
    );
    last = (m.index as number) + all.length;
  }
  out.push(links(source.slice(last)));
  return <>{out}</>;
}
