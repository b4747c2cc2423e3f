import { safeUrl } from "../lib/linkify";

/** Faces for initials: white text reads on each (≥ 4.5:1), and they differ in hue. */
const FACES = [
  "#b42318",
  "#a15c07",
  "#067647",
  "#0e7090",
  "#175cd3",
  "#5925dc",
  "#c11574",
  "#475467",
];

/**
 * A colour per person, from their whole name: two agents with the same initials (Ada Admin and
 * Alan Agent) get different faces, and one agent the same face everywhere.
 */
export const faceOf = (name: string) => {
  // FNV-1a; its top three bits pick one of the eight faces (the low bits vary less).
  let h = 2166136261;
  for (const c of name) {
    h = Math.imul(h ^ (c.codePointAt(0) as number), 16777619);
  }
  return FACES[h >>> 29] as string;
};

/** The sender's picture, or their initials on their colour; decorative, the name is text. */
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
    <span class="pw-avatar" aria-hidden="true" style={{ background: faceOf(name) }}>
      {initials || "?"}
    </span>
  );
}
