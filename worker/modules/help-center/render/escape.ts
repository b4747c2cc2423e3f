const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text and attribute values alike: every page string built by hand goes through this. */
export const esc = (text: string) => text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);

/**
 * A URL a visitor may follow: http(s), mailto, or relative. Anything with another scheme
 * (javascript:, data:, vbscript:, …), however it is spelt with spaces or control
 * characters, is refused.
 */
export function safeUrl(raw: string): string | null {
  const url = raw.trim();
  // Browsers drop tabs and newlines inside URLs and ignore leading control characters.
  const probe = [...url]
    .filter((ch) => {
      const code = ch.charCodeAt(0);
      return code > 0x20 && (code < 0x7f || code > 0x9f);
    })
    .join("")
    .toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(probe);
  if (scheme && !["http", "https", "mailto"].includes(scheme[1] ?? "")) {
    return null;
  }
  if (probe.startsWith("//") || probe.startsWith("\\")) {
    return `https:${url.replace(/^\\+/, "//")}`;
  }
  return url;
}

export const isExternal = (url: string) => /^(https?:)?\/\//i.test(url);
