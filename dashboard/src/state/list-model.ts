import type { Activity, Agent, Conversation, Frame, Status, Summary, Team } from "../lib/types";

export type AssigneeTab = "me" | "unassigned" | "all";
export type SortKey =
  | "last_activity_at_desc"
  | "last_activity_at_asc"
  | "created_at_desc"
  | "created_at_asc"
  | "priority_desc";

export type ListFilter = {
  assignee: AssigneeTab;
  status: Status | "all";
  inboxId: number | null;
  teamId: number | null;
  label: string | null;
  sort: SortKey;
  q: string;
};

export const DEFAULT_FILTER: ListFilter = {
  assignee: "me",
  status: "open",
  inboxId: null,
  teamId: null,
  label: null,
  sort: "last_activity_at_desc",
  q: "",
};

const PRIORITY_RANK: Record<string, number> = { urgent: 4, high: 3, medium: 2, low: 1 };

/** The list's order, the same as the API's sort keys. */
export function compare(sort: SortKey) {
  return (a: Conversation, b: Conversation) => {
    let d = 0;
    switch (sort) {
      case "last_activity_at_asc":
        d = a.last_activity_at - b.last_activity_at;
        break;
      case "created_at_desc":
        d = b.created_at - a.created_at;
        break;
      case "created_at_asc":
        d = a.created_at - b.created_at;
        break;
      case "priority_desc":
        d =
          (PRIORITY_RANK[b.priority ?? ""] ?? 0) - (PRIORITY_RANK[a.priority ?? ""] ?? 0) ||
          b.last_activity_at - a.last_activity_at;
        break;
      default:
        d = b.last_activity_at - a.last_activity_at;
    }
    return d || b.id - a.id;
  };
}

/** Whether a conversation belongs in the filtered list; null when the summary cannot tell. */
export function belongs(
  c: {
    status: Status;
    assignee_id: number | null;
    inbox_id: number;
    team_id: number | null;
    labels?: string[];
  },
  f: ListFilter,
  meId: number,
): boolean | null {
  if (f.status !== "all" && c.status !== f.status) {
    return false;
  }
  if (f.assignee === "me" && c.assignee_id !== meId) {
    return false;
  }
  if (f.assignee === "unassigned" && c.assignee_id !== null) {
    return false;
  }
  if (f.inboxId !== null && c.inbox_id !== f.inboxId) {
    return false;
  }
  if (f.teamId !== null && c.team_id !== f.teamId) {
    return false;
  }
  if (f.label !== null) {
    return c.labels ? c.labels.includes(f.label) : null;
  }
  // Message search is the server's: a conversation the list has not fetched is not known to match.
  return f.q ? null : true;
}

const facts = (c: Conversation) => ({
  status: c.status,
  assignee_id: c.meta.assignee?.id ?? null,
  inbox_id: c.inbox_id,
  team_id: c.meta.team?.id ?? null,
  labels: c.labels,
});

/** A record at least as new as the one held (the feed and HTTP pages race each other). */
const notOlder = (next: { updated_at: number; last_activity_at: number }, held: Conversation) =>
  next.updated_at > held.updated_at ||
  (next.updated_at === held.updated_at && next.last_activity_at >= held.last_activity_at);

export type Directory = {
  agent(id: number): Agent | undefined;
  team(id: number): Team | undefined;
};

/**
 * The conversation list's rows and order, merged from HTTP pages and the account feed's frames
 * (which can arrive before or after the page that already holds their change, or twice). Pure
 * data, no DOM: the store wraps it in a signal.
 */
export class ListModel {
  readonly rows = new Map<number, Conversation>();
  ids: number[] = [];

  constructor(
    readonly filter: ListFilter,
    readonly meId: number,
    private readonly directory: Directory = { agent: () => undefined, team: () => undefined },
  ) {}

  private sort() {
    const by = compare(this.filter.sort);
    this.ids = [...this.rows.values()].sort(by).map((c) => c.id);
  }

  /** Full records (a page, one fetched conversation): kept when they belong and are not stale. */
  upsert(list: Conversation[], trusted = false) {
    for (const c of list) {
      const held = this.rows.get(c.id);
      if (held && !notOlder(c, held)) {
        continue;
      }
      // A page the server filtered is trusted for labels and search; a lone fetch is checked.
      const fits = trusted ? true : belongs(facts(c), this.filter, this.meId);
      if (fits === false || (fits === null && !held)) {
        this.rows.delete(c.id);
      } else {
        this.rows.set(c.id, c);
      }
    }
    this.sort();
  }

  /**
   * A fresh first page (after a reconnect, on the poll): rows that sort within it but are not in
   * it have left the list meanwhile; `complete` when the page is the whole list.
   */
  replaceTop(list: Conversation[], complete: boolean) {
    this.upsert(list, true);
    const seen = new Set(list.map((c) => c.id));
    const last = list.length ? this.rows.get((list.at(-1) as Conversation).id) : undefined;
    const by = compare(this.filter.sort);
    for (const id of this.ids) {
      const c = this.rows.get(id) as Conversation;
      if (!complete && (!last || by(c, last) > 0)) {
        break;
      }
      if (!seen.has(id)) {
        this.rows.delete(id);
      }
    }
    this.sort();
  }

  remove(id: number) {
    if (this.rows.delete(id)) {
      this.sort();
    }
  }

  /**
   * One account feed frame. Answers what the store should do: "fetch" the full record (a
   * conversation the list does not hold yet), "changed", or "ignored" (an older change, or one
   * that concerns no row and does not belong). The feed's seq is not used: it restarts with its
   * Durable Object, so a duplicate is recognised by its content.
   */
  apply(frame: Frame): "fetch" | "changed" | "ignored" {
    const isMessage = frame.event === "message.created";
    if (!isMessage && !frame.event.startsWith("conversation.")) {
      return "ignored";
    }
    const s = frame.data as unknown as Summary;
    if (typeof s?.id !== "number") {
      return "ignored";
    }
    const held = this.rows.get(s.id);
    const fits = belongs({ ...s, labels: held?.labels }, this.filter, this.meId);
    if (!held) {
      return fits === false ? "ignored" : "fetch";
    }
    const current = notOlder(s, held);
    const message = isMessage ? newerMessage(frame.data as unknown as Activity, held) : null;
    if (!current && !message) {
      return "ignored";
    }
    if (current && fits === false) {
      this.remove(s.id);
      return "changed";
    }
    let next = current ? this.merge(held, s) : held;
    if (message) {
      const a = frame.data as unknown as Activity;
      next = {
        ...next,
        last_non_activity_message: message,
        unread_count: a.unread_count,
        last_activity_at: Math.max(next.last_activity_at, a.last_activity_at),
      };
    }
    this.rows.set(s.id, next);
    this.sort();
    return "changed";
  }

  /** A held row with a summary's facts (names of a new assignee or team from the directory). */
  private merge(held: Conversation, s: Summary): Conversation {
    const assignee =
      s.assignee_id === null
        ? null
        : held.meta.assignee?.id === s.assignee_id
          ? held.meta.assignee
          : (this.directory.agent(s.assignee_id) ?? { id: s.assignee_id, name: "" });
    const team =
      s.team_id === null
        ? null
        : held.meta.team?.id === s.team_id
          ? held.meta.team
          : (this.directory.team(s.team_id) ?? { id: s.team_id, name: "" });
    return {
      ...held,
      status: s.status,
      priority: s.priority,
      snoozed_until: s.snoozed_until,
      muted: s.muted,
      inbox_id: s.inbox_id,
      last_activity_at: s.last_activity_at,
      updated_at: s.updated_at,
      meta: { ...held.meta, assignee, team },
    };
  }
}

/** The frame's message when it is at least as new as the row's preview (frames race pages). */
function newerMessage(a: Activity, held: Conversation) {
  const m = a.last_non_activity_message;
  const shown = held.last_non_activity_message;
  if (typeof m?.id !== "number") {
    return null;
  }
  return !shown || m.id >= shown.id ? m : null;
}
