import { acct, query, request } from "../lib/api";
import { signal } from "../lib/signal";
import { LiveSocket, type SocketState } from "../lib/socket";
import type { Conversation, Counts, Frame, Message } from "../lib/types";
import { directory } from "./account";
import { DEFAULT_FILTER, type ListFilter, ListModel } from "./list-model";
import { applyPresence } from "./presence";
import { token } from "./session";

const PER_PAGE = 25;
/**
 * The feed carries every change the list shows (docs/realtime.md, "Account feed"); the first page
 * is still re-read now and then, in case a frame was lost on the server's side.
 */
const POLL_MS = 60_000;

export const filter = signal<ListFilter>({ ...DEFAULT_FILTER });
/** Bumped on every change of the model (rows are not copied into signals: 10,000 of them). */
export const version = signal(0);
export const counts = signal<Counts | null>(null);
export const loading = signal(false);
export const feedState = signal<SocketState>("connecting");
export const loadError = signal("");

let model = new ListModel(DEFAULT_FILTER, 0);
let accountId = 0;
let meId = 0;
let pagesLoaded = 0;
let exhausted = false;
let generation = 0;
let feed: LiveSocket | null = null;
let pollTimer: ReturnType<typeof setInterval> | undefined;
let countsTimer: ReturnType<typeof setTimeout> | undefined;
const fetching = new Set<number>();
/** Message frames of rows being fetched: applied once the record is in (it may predate them). */
const waiting = new Map<number, Frame[]>();
/** The conversation open in the thread: a message there is read as it arrives. */
let openId = 0;

/** Someone who wants to hear of changes (notifications): the frame and the row before it. */
type Listener = (frame: Frame, row: Conversation | undefined) => void;
const listeners = new Set<Listener>();
export const onFeed = (fn: Listener) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};

export const rows = () => model.ids;
export const row = (id: number) => model.rows.get(id);
const changed = () => {
  version.value += 1;
};

const params = (f: ListFilter) => ({
  status: f.status,
  inbox_id: f.inboxId,
  team_id: f.teamId,
  labels: f.label,
  q: f.q.trim() || undefined,
  sort_by: f.sort,
});

async function fetchPage(page: number) {
  const gen = generation;
  const f = filter.peek();
  const body = await request<{ data: { meta: Counts; payload: Conversation[] } }>(
    acct(accountId, `/conversations${query({ ...params(f), assignee_type: f.assignee, page })}`),
  );
  if (gen !== generation) {
    return;
  }
  counts.value = body.data.meta;
  if (page === 1) {
    model.replaceTop(body.data.payload, body.data.payload.length < PER_PAGE);
  } else {
    model.upsert(body.data.payload, true);
  }
  if (body.data.payload.length < PER_PAGE) {
    exhausted = true;
  }
  pagesLoaded = Math.max(pagesLoaded, page);
  changed();
}

async function refreshCounts() {
  const gen = generation;
  const body = await request<{ data: { meta: Counts } }>(
    acct(accountId, `/conversations/meta${query(params(filter.peek()))}`),
  ).catch(() => null);
  if (body && gen === generation) {
    counts.value = body.data.meta;
  }
}

const scheduleCounts = () => {
  clearTimeout(countsTimer);
  countsTimer = setTimeout(refreshCounts, 300);
};

/** A conversation's full record, when a frame shows something the summary cannot. */
export async function fetchOne(id: number) {
  if (fetching.has(id)) {
    return;
  }
  fetching.add(id);
  const gen = generation;
  try {
    const c = await request<Conversation>(acct(accountId, `/conversations/${id}`));
    if (gen === generation) {
      model.upsert([c]);
      for (const f of waiting.get(id) ?? []) {
        model.apply(f);
      }
      readIfOpen(id);
      changed();
    }
  } catch {
    // gone or no longer visible
    if (gen === generation) {
      model.remove(id);
      changed();
    }
  } finally {
    fetching.delete(id);
    waiting.delete(id);
  }
}

async function reload() {
  generation += 1;
  model = new ListModel(filter.peek(), meId, directory);
  pagesLoaded = 0;
  exhausted = false;
  changed();
  loading.value = true;
  loadError.value = "";
  try {
    await fetchPage(1);
  } catch (err) {
    loadError.value = err instanceof Error ? err.message : "The list could not be loaded";
  } finally {
    loading.value = false;
  }
}

/** The next page, when the window nears the end of what is loaded. */
export async function loadMore() {
  if (loading.peek() || exhausted || pagesLoaded === 0) {
    return;
  }
  loading.value = true;
  try {
    await fetchPage(pagesLoaded + 1);
  } catch {
    // the next scroll tries again
  } finally {
    loading.value = false;
  }
}

export const hasMore = () => !exhausted;

/** After a reconnect or on the poll: the first page again, merged (nothing is lost or doubled). */
async function catchUp() {
  await fetchPage(1).catch(() => undefined);
}

export function setFilter(patch: Partial<ListFilter>) {
  filter.value = { ...filter.peek(), ...patch };
  void reload();
}

function onFrame(frame: Frame) {
  if (frame.event === "presence.update") {
    applyPresence(frame.data);
    return;
  }
  if (frame.event !== "message.created" && !frame.event.startsWith("conversation.")) {
    return;
  }
  const id = Number(frame.data.id);
  const before = model.rows.get(id);
  const verdict = model.apply(frame);
  if (verdict === "fetch") {
    if (frame.event === "message.created") {
      waiting.set(id, [...(waiting.get(id) ?? []), frame]);
    }
    void fetchOne(id);
  } else if (verdict === "changed") {
    readIfOpen(id);
    changed();
  }
  if (frame.event !== "message.created") {
    scheduleCounts();
  }
  for (const fn of listeners) {
    fn(frame, before);
  }
}

/** The open conversation's record, read again by the thread: its row follows (or leaves). */
export function noteConversation(c: Conversation) {
  model.upsert([c]);
  readIfOpen(c.id);
  changed();
}

/** A message seen on the open thread's socket moves its row at once. */
export function noteMessage(m: Message) {
  const held = model.rows.get(m.conversation_id);
  if (!held || m.message_type === 2) {
    return;
  }
  model.upsert(
    [
      {
        ...held,
        last_non_activity_message: m,
        last_activity_at: Math.max(held.last_activity_at, m.created_at),
      },
    ],
    true,
  );
  changed();
}

/** The thread opened (or closed: 0) a conversation. */
export function setOpen(id: number) {
  openId = id;
}

/** A row whose conversation the agent is looking at shows nothing unread. */
function readIfOpen(id: number) {
  if (id === openId && document.visibilityState === "visible") {
    const held = model.rows.get(id);
    if (held && held.unread_count > 0) {
      model.rows.set(id, { ...held, unread_count: 0 });
    }
  }
}

/** The open conversation was read: its unread marker goes. */
export function markRead(id: number) {
  const held = model.rows.get(id);
  if (held && held.unread_count > 0) {
    model.rows.set(id, { ...held, unread_count: 0 });
    changed();
  }
}

export function startList(account: number, me: number) {
  stopList();
  accountId = account;
  meId = me;
  void reload();
  feed = new LiveSocket({
    url: () => acct(accountId, "/live"),
    token: () => token.peek(),
    onFrame,
    onState: (state, reconnected) => {
      feedState.value = state;
      if (state === "live" && reconnected) {
        void catchUp();
        scheduleCounts();
      }
    },
  });
  feed.start();
  pollTimer = setInterval(() => {
    if (document.visibilityState === "visible") {
      void catchUp();
    }
  }, POLL_MS);
}

export function stopList() {
  feed?.stop();
  feed = null;
  clearInterval(pollTimer);
  clearTimeout(countsTimer);
  waiting.clear();
  generation += 1;
}

/** For tests and the e2e: drop the feed's connection now. */
export const dropFeed = () => feed?.reconnect();
