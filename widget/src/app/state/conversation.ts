import type { Conversation, Message } from "../api/types";
import { load, store } from "../lib/storage";
import { NO_READ, type ReadMark, readMark } from "./read-mark";
import { computed, signal } from "./signal";

/** A message the visitor wrote that the server has not confirmed yet. */
export type Pending = {
  echo_id: string;
  content: string;
  created_at: number;
  /** limited: held back by the rate limit (429) until Retry-After, though online. */
  state: "sending" | "queued" | "limited" | "failed";
  /** A send failed without an answer: it may have landed, check before sending again. */
  uncertain?: boolean;
  /** Files are not persisted: a reload drops an unsent attachment (the text survives). */
  file?: File;
};

/** Server messages, ordered by seq (the room's order). */
export const messages = signal<Message[]>([]);
export const pending = signal<Pending[]>([]);
export const status = signal<Conversation["status"] | null>(null);
/** When the agents last read, and up to which message: the visitor's "Read". */
export const agentRead = signal<ReadMark>(NO_READ);
/** Name of the agent or bot typing right now. */
export const typing = signal<string | null>(null);
/** More history exists before the first message shown. */
export const hasOlder = signal(false);
/** The conversation's history is loaded (or it is new): live events are news from here on. */
export const synced = signal(true);
/** Highest room seq seen, the resume point of the socket. */
export const cursor = { seq: 0 };

export const resolved = computed(() => status.value === "resolved");

/** Adds or replaces messages by id; a message carrying a pending echo_id settles it. */
export function mergeMessages(list: Message[]) {
  if (list.length === 0) {
    return;
  }
  const byId = new Map(messages.value.map((m) => [m.id, m]));
  for (const m of list) {
    byId.set(m.id, m);
    cursor.seq = Math.max(cursor.seq, m.seq);
  }
  messages.value = [...byId.values()].sort((a, b) => a.seq - b.seq);
  const echoes = new Set(list.map((m) => m.echo_id).filter(Boolean));
  if (pending.value.some((p) => echoes.has(p.echo_id))) {
    setPending(pending.value.filter((p) => !echoes.has(p.echo_id)));
  }
}

export function restorePending() {
  pending.value = load<Pending[]>("outbox", []).map((p) =>
    p.state === "sending" ? { ...p, state: "queued", uncertain: true } : p,
  );
}

export function setPending(list: Pending[]) {
  pending.value = list;
  store(
    "outbox",
    list.filter((p) => !p.file).map(({ file: _file, ...p }) => p),
  );
}

export function updatePending(echoId: string, patch: Partial<Pending>) {
  setPending(pending.value.map((p) => (p.echo_id === echoId ? { ...p, ...patch } : p)));
}

/** `merge`: how its messages join the list (live.ts passes `receive`, which reports new ones). */
export function loadConversation(conversation: Conversation, merge = mergeMessages) {
  status.value = conversation.status;
  agentRead.value = readMark(conversation.agent_last_seen_at, conversation.agent_last_seen_seq);
  merge(conversation.messages);
}

/** Forget the conversation on screen (a new one starts, or the session was reset). */
export function clearConversation() {
  messages.value = [];
  status.value = null;
  typing.value = null;
  hasOlder.value = false;
  agentRead.value = NO_READ;
  cursor.seq = 0;
  synced.value = true;
}
