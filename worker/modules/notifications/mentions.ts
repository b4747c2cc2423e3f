/**
 * Chatwoot's stored form of an @mention in a private note, as its editor writes it:
 * `[@Jane](mention://user/12/Jane)` or `[@Support](mention://team/3/Support)`. Bounded: a note
 * names at most 50 distinct users or teams.
 */
const MENTION = /mention:\/\/(user|team)\/(\d{1,15})\//g;
const MAX_MENTIONS = 50;

export function mentionedIds(content: string | null): { users: number[]; teams: number[] } {
  const users = new Set<number>();
  const teams = new Set<number>();
  for (const m of (content ?? "").matchAll(MENTION)) {
    if (users.size + teams.size >= MAX_MENTIONS) {
      break;
    }
    (m[1] === "user" ? users : teams).add(Number(m[2]));
  }
  return { users: [...users], teams: [...teams] };
}
