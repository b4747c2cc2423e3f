/**
 * URL slugs in any script: letters and digits of every language survive (lower-cased,
 * accents dropped), everything else becomes one hyphen. A browser shows them as typed and
 * sends them percent-encoded, which Hono decodes before routing.
 */
export const SLUG_PATTERN =
  /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+(?:-[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+)*$/u;

export const MAX_SLUG = 120;

export function slugify(text: string, fallback: string): string {
  const slug = text
    // Latin accents go (é -> e); other scripts' marks (kana voicing, Indic vowel signs) stay.
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]+/g, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG)
    .replace(/-+$/, "");
  return slug.length > 0 ? slug : fallback;
}

/** `base`, or `base-2`, `base-3`, … the first that `taken` does not hold. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) {
    return base;
  }
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, MAX_SLUG - String(n).length - 1)}-${n}`;
    if (!taken.has(candidate)) {
      return candidate;
    }
  }
}
