import { acct, request } from "../lib/api";
import { signal } from "../lib/signal";
import type { Agent, Inbox, Label, Team } from "../lib/types";

/** The account's directory: who and what the filters, actions and admin pages pick from. */
export const agents = signal<Agent[]>([]);
export const teams = signal<Team[]>([]);
export const inboxes = signal<Inbox[]>([]);
export const labels = signal<Label[]>([]);

export const directory = {
  agent: (id: number) => agents.peek().find((a) => a.id === id),
  team: (id: number) => teams.peek().find((t) => t.id === id),
};

const list = <T>(body: unknown): T[] =>
  Array.isArray(body) ? body : (((body as { payload?: T[] })?.payload ?? []) as T[]);

export async function loadDirectory(accountId: number) {
  const get = (path: string) => request<unknown>(acct(accountId, path)).catch(() => []);
  const [a, t, i, l] = await Promise.all([
    get("/agents"),
    get("/teams"),
    get("/inboxes"),
    get("/labels"),
  ]);
  agents.value = list<Agent>(a);
  teams.value = list<Team>(t);
  inboxes.value = list<Inbox>(i);
  labels.value = list<Label>(l);
}

export const inboxName = (id: number) => inboxes.value.find((i) => i.id === id)?.name ?? "";
