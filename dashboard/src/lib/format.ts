import type { Conversation } from "./types";

/** Short relative time for the list: now, 5m, 3h, then the weekday or the date. */
export function ago(unix: number, now = Date.now()): string {
  const s = Math.max(0, Math.floor(now / 1000) - unix);
  if (s < 60) {
    return "now";
  }
  if (s < 3600) {
    return `${Math.floor(s / 60)}m`;
  }
  if (s < 86_400) {
    return `${Math.floor(s / 3600)}h`;
  }
  const d = new Date(unix * 1000);
  return s < 6 * 86_400
    ? d.toLocaleDateString(undefined, { weekday: "short" })
    : d.toLocaleDateString(undefined, { day: "numeric", month: "short" });
}

export const clock = (unix: number) =>
  new Date(unix * 1000).toLocaleString(undefined, {
    hour: "2-digit",
    minute: "2-digit",
    day: "numeric",
    month: "short",
  });

export const initials = (name: string | null | undefined) =>
  (name ?? "?")
    .split(/\s+/)
    .filter((w) => /^\p{L}/u.test(w))
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join("") || "?";

/** A URL that may go in an href or src: http(s), or a path of this origin. */
export const safeUrl = (url: string | null | undefined) =>
  url && (/^https?:\/\//i.test(url) || /^\/[^/\\]/.test(url)) ? url : undefined;

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** A mention as agents write it, `[@Alan Agent](mention://user/2/Alan%20Agent)` (or a team's). */
const MENTION = /\[(@[^\]\n]+)\]\(mention:\/\/(?:user|team)\/\d+\/[^)\s]*\)/g;

/** Text as a reader sees it: a mention is its `@Name`, not its markdown. */
export const plainMentions = (text: string) => text.replace(MENTION, "$1");

/** The list's one line of a conversation's latest message. */
export function previewOf(c: Conversation) {
  const m = c.last_non_activity_message;
  if (!m) {
    return "";
  }
  const text =
    plainMentions(m.content?.trim() ?? "") || (m.attachments?.length ? "📎 Attachment" : "");
  return m.private ? `Note: ${text}` : m.message_type === 1 ? `You: ${text}` : text;
}
