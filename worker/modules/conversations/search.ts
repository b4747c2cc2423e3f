/** Words beyond this are ignored: a search box query, not a document. */
const MAX_WORDS = 16;

/**
 * Builds an FTS5 MATCH expression from user text without letting any FTS5 syntax through:
 * every word becomes a quoted string (inner quotes doubled), all words must match, and the
 * last one matches as a prefix so results appear while typing. Words are runs of letters,
 * digits and marks, as the unicode61 tokenizer sees them. Returns null when nothing
 * searchable is left (e.g. only punctuation), which the caller answers with no results.
 */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}\p{M}\p{Co}]+/gu)?.slice(0, MAX_WORDS) ?? [];
  if (words.length === 0) {
    return null;
  }
  const quoted = words.map((w) => `"${w.replaceAll('"', '""')}"`);
  quoted[quoted.length - 1] += "*";
  return quoted.join(" ");
}
