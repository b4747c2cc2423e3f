import { linkify } from "../lib/linkify";

/** Message text as text nodes; URLs and emails become links. No HTML is ever interpreted. */
export function RichText({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((token, i) =>
        token.href ? (
          <a key={i} href={token.href} target="_blank" rel="noopener noreferrer nofollow">
            {token.text}
          </a>
        ) : (
          token.text
        ),
      )}
    </>
  );
}
