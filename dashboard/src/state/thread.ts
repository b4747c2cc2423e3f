import { acct, query, request } from "../lib/api";
import { signal } from "../lib/signal";
import { LiveSocket, type SocketState } from "../lib/socket";
import type { Conversation, Frame, Message } from "../lib/types";
import { fetchOne, markRead, noteConversation, noteMessage, row, setOpen } from "./list";
import { type Draft, Outbox, type Pending } from "./outbox";
import { NO_READ, type ReadMark, readMark } from "./read-mark";
import { profile, token } from "./session";
import {
  keep,
  kept,
  mayHaveOlder,
  type Page,
  prefetch as readAhead,
  takeAhead,
} from "./thread-pages";

export type Person = { id: number; name: string; type: string };

export const conversation = signal<Conversation | null>(null);
export const messages = signal<Message[]>([]);
export const pending = signal<Pending[]>([]);
export const typers = signal<Person[]>([]);
export const viewers = signal<Person[]>([]);
export const contactOnline = signal(false);
/** When the contact last read, and up to which message: the agents' "Seen". */
export const contactSeen = signal<ReadMark>(NO_READ);
export const hasOlder = signal(false);
export const threadState = signal<SocketState>("connecting");
export const threadError = signal("");
/**
 * The conversation whose messages are on screen (0 while an open is reading them): what the
 * thread does not need (the contact panel's reads) waits for it, so the one read an open makes
 * does not share the server with them.
 */
export const shownFor = signal(0);

let accountId = 0;
let openId = 0;
let lastSeq = 0;
let generation = 0;
let socket: LiveSocket | null = null;
const byId = new Map<number, Message>();

function keepOpen() {
  if (openId && byId.size > 0) {
    keep(accountId, openId, { messages: messages.peek(), lastSeq, hasOlder: hasOlder.peek() });
  }
}

const publish = () => {
  messages.value = [...byId.values()].sort((a, b) => a.seq - b.seq || a.id - b.id);
};

function take(list: Message[]) {
  for (const m of list) {
    byId.set(m.id, m);
    lastSeq = Math.max(lastSeq, m.seq ?? 0);
  }
  publish();
}

const outbox = new Outbox({
  socketSend: (frame) => socket?.send(frame) ?? false,
  http: (draft: Draft) => {
    const path = acct(accountId, `/conversations/${draft.to}/messages`);
    if (draft.files.length) {
      const form = new FormData();
      form.set("content", draft.content);
      form.set("private", String(draft.private));
      form.set("echo_id", draft.echo_id);
      for (const f of draft.files) {
        form.append("attachments[]", f, f.name);
      }
      return request<Message>(path, { form });
    }
    return request<Message>(path, {
      json: { content: draft.content, private: draft.private, echo_id: draft.echo_id },
    });
  },
  delivered: (m) => {
    if (m.conversation_id === openId) {
      take([m]);
      noteMessage(m);
    }
  },
  onChange: () => {
    pending.value = outbox.list().filter((p) => p.to === openId);
  },
});

export function send(content: string, isPrivate: boolean, files: File[] = []) {
  outbox.send({ echo_id: crypto.randomUUID(), content, private: isPrivate, files, to: openId });
}
export const retry = (echoId: string) => outbox.retry(echoId);
export const discard = (echoId: string) => outbox.discard(echoId);

const me = () => profile.peek()?.id ?? 0;

function person(data: Record<string, unknown>): Person {
  const t = data.typer as Person;
  return { id: t?.id, name: t?.name ?? "", type: t?.type ?? "" };
}

function onFrame(frame: Frame) {
  const data = frame.data ?? {};
  if (
    typeof frame.seq === "number" &&
    (frame.event.startsWith("message.") || frame.event.startsWith("conversation."))
  ) {
    lastSeq = Math.max(lastSeq, frame.seq);
  }
  switch (frame.event) {
    case "message.created":
    case "message.updated": {
      const m = data as unknown as Message;
      outbox.stored(m);
      if (frame.event === "message.created" && m.message_type === 0) {
        unseen = true;
        markSeen();
      }
      return;
    }
    case "ack":
      outbox.acked(String(data.echo_id));
      return;
    case "error":
      if (data.echo_id) {
        outbox.refused(String(data.echo_id), String(data.message ?? "Not sent"));
      }
      return;
    case "conversation.status_changed":
    case "conversation.assignee_changed":
    case "conversation.updated":
      // The summary lacks the assignee's and team's names: the full record is one read away.
      void refreshConversation();
      return;
    case "conversation.read":
      if (data.by === "contact") {
        contactSeen.value = readMark(data.at || Math.floor(Date.now() / 1000), data.seq);
      }
      return;
    case "typing.on":
    case "typing.off": {
      const p = person(data);
      if (p.type === "user" && p.id === me()) {
        return;
      }
      const others = typers.peek().filter((t) => !(t.id === p.id && t.type === p.type));
      typers.value = frame.event === "typing.on" ? [...others, p] : others;
      return;
    }
    case "presence":
      viewers.value = ((data.agents_online as Person[]) ?? []).filter(
        (a) => !(a.type === "user" && a.id === me()),
      );
      contactOnline.value = Boolean(data.contact_online);
      return;
    case "resync":
      void loadLatest();
      return;
  }
}

async function refreshConversation() {
  const gen = generation;
  const c = await request<Conversation>(acct(accountId, `/conversations/${openId}`)).catch(
    () => null,
  );
  if (c && gen === generation) {
    conversation.value = c;
    noteContactRead(c);
    noteConversation(c);
  } else if (gen === generation) {
    void fetchOne(openId);
  }
}

async function loadLatest() {
  const gen = generation;
  const body = await request<{ payload: Message[] }>(
    acct(accountId, `/conversations/${openId}/messages`),
  );
  if (gen === generation) {
    take(body.payload);
    hasOlder.value = mayHaveOlder(body.payload.length);
  }
}

export async function loadOlder() {
  const first = messages.peek()[0];
  if (!first || !hasOlder.peek()) {
    return;
  }
  const gen = generation;
  const body = await request<{ payload: Message[] }>(
    acct(accountId, `/conversations/${openId}/messages${query({ before: first.id })}`),
  );
  if (gen === generation) {
    take(body.payload);
    hasOlder.value = mayHaveOlder(body.payload.length);
  }
}

/** Whether the open conversation has incoming messages the agent has not been shown yet. */
let unseen = false;

/**
 * Marks the conversation read by the agent (socket when open, else HTTP) if the tab shows it and
 * something is unread: a read is a write with its own event, not worth sending on every open.
 */
export function markSeen() {
  if (document.visibilityState !== "visible" || !openId || !unseen) {
    return;
  }
  unseen = false;
  markRead(openId);
  if (!socket?.send({ type: "read" })) {
    void request(acct(accountId, `/conversations/${openId}/update_last_seen`), {
      method: "POST",
    }).catch(() => undefined);
  }
}

let typingSince = 0;
/** The agent's own typing: renewed at most every 3 s; it clears by itself after 6 s. */
export function typing(on: boolean, isPrivate: boolean) {
  const now = Date.now();
  if (on && now - typingSince < 3000) {
    return;
  }
  if (!on && typingSince === 0) {
    return;
  }
  typingSince = on ? now : 0;
  socket?.send({ type: "typing", on, private: isPrivate });
}

/** Reads ahead of an open (see thread-pages.ts); never for the conversation already open. */
export function prefetch(account: number, id: number) {
  if (account !== accountId || id !== openId) {
    readAhead(account, id);
  }
}

/**
 * Opens a conversation: what the app already holds (the list's row, the messages it was left
 * with) shows at once; only what is missing is read. A first open reads the latest page of
 * messages (and the record, for a deep link to a conversation the list does not hold); the room
 * socket then resumes after the newest seq shown.
 */
export async function openThread(account: number, id: number) {
  if (account === accountId && id === openId) {
    return;
  }
  closeThread();
  generation += 1;
  const gen = generation;
  accountId = account;
  openId = id;
  setOpen(id);
  threadError.value = "";
  const known = row(id);
  const held = kept(account, id);
  if (held) {
    take(held.messages);
    lastSeq = held.lastSeq;
    hasOlder.value = held.hasOlder;
  }
  if (known) {
    show(known);
  }
  const ahead = takeAhead(account, id);
  try {
    const [c] = await Promise.all([
      known ? null : request<Conversation>(acct(account, `/conversations/${id}`)),
      held ? null : ahead ? showAhead(ahead, gen) : loadLatest(),
    ]);
    if (gen !== generation) {
      return;
    }
    if (c) {
      show(c);
    }
  } catch (err) {
    if (gen === generation) {
      threadError.value = err instanceof Error ? err.message : "Not found";
      shownFor.value = id;
    }
    return;
  }
  shownFor.value = id;
  socket = new LiveSocket({
    url: () => acct(account, `/conversations/${id}/live${query({ batch: 1, after: lastSeq })}`),
    token: () => token.peek(),
    onFrame: (f) => {
      if (gen === generation) {
        onFrame(f);
      }
    },
    onState: (state) => {
      threadState.value = state;
      if (state === "down") {
        typers.value = [];
        outbox.socketClosed();
      }
      if (state === "live") {
        markSeen();
      }
    },
  });
  socket.start();
  if (known) {
    // The list's row may lag on what its summary frames do not carry (labels, attributes).
    void refreshConversation();
  }
}

/** A page fetched ahead (or, if that failed, a fresh read) becomes the thread. */
async function showAhead(ahead: Promise<Page | null>, gen: number) {
  const page = await ahead;
  if (!page) {
    return loadLatest();
  }
  if (gen === generation) {
    take(page.messages);
    lastSeq = Math.max(lastSeq, page.lastSeq);
    hasOlder.value = page.hasOlder;
  }
}

/** The record's mark, unless a read frame already brought a later one. */
function noteContactRead(c: Conversation) {
  const mark = readMark(c.contact_last_seen_at, c.contact_last_seen_seq);
  const held = contactSeen.peek();
  if (mark.at > held.at || (mark.seq ?? 0) > (held.seq ?? 0)) {
    contactSeen.value = mark;
  }
}

function show(c: Conversation) {
  conversation.value = c;
  noteContactRead(c);
  unseen = c.unread_count > 0;
}

export function closeThread() {
  keepOpen();
  socket?.stop();
  socket = null;
  generation += 1;
  openId = 0;
  setOpen(0);
  shownFor.value = 0;
  lastSeq = 0;
  byId.clear();
  conversation.value = null;
  messages.value = [];
  typers.value = [];
  viewers.value = [];
  contactOnline.value = false;
  contactSeen.value = NO_READ;
  typingSince = 0;
  unseen = false;
}

/** For the e2e: drop the room connection now (it resumes with ?after=). */
export const dropThread = () => socket?.reconnect();

/** Conversation actions: each answers the changed record, which the socket confirms anyway. */
export async function act(path: string, json: unknown) {
  await request(acct(accountId, `/conversations/${openId}${path}`), { json });
  await refreshConversation();
}

// Back to the tab: what arrived while it was hidden is read now.
addEventListener("visibilitychange", () => markSeen());
