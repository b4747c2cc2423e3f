import { safeUrl } from "../lib/linkify";

/** The sender's picture, or their initials; decorative, the name is shown as text. */
export function Avatar({ name, url }: { name: string; url?: string | null }) {
  const src = safeUrl(url);
  if (src) {
    return <img class="pw-avatar" src={src} alt="" width={28} height={28} />;
  }
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join("");
  return (
    <span class="pw-avatar" aria-hidden="true">
      {initials || "?"}
    </span>
  );
}
