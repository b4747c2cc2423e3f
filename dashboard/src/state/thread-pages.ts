import { acct, request } from "../lib/api";
import { effect } from "../lib/signal";
import type { Message } from "../lib/types";
import { token } from "./session";

/** A conversation's newest messages as the thread holds them, and where its socket resumes. */
export type Page = { messages: Message[]; lastSeq: number; hasOlder: boolean };

/**
 * The last conversations opened, as they were left: opening one again shows them at once, and
 * the room socket's resume (`?after=` their seq) brings exactly what came meanwhile (or
 * `resync`, and the latest page is read again). Bounded: a few conversations, their newest
 * messages only (older ones load on scroll, as after a first open).
 */
const RECENT = 12;
const KEEP = 200;
const PAGE = 20;
const recent = new Map<string, Page>();
/** Latest pages asked for ahead of an open, by conversation (null: it failed). */
const prefetching = new Map<string, Promise<Page | null>>();
const keyOf = (account: number, id: number) => `${account}:${id}`;

// Nothing kept outlives the session it was read in (sign-out, another user signing in).
let keptFor = token.peek();
effect(() => {
  if (token.value !== keptFor) {
    keptFor = token.peek();
    recent.clear();
  }
});

/** A closing thread's messages, kept for its next open. */
export function keep(account: number, id: number, page: Page) {
  const kept = page.messages.slice(-KEEP);
  const key = keyOf(account, id);
  recent.delete(key);
  recent.set(key, {
    messages: kept,
    lastSeq: page.lastSeq,
    hasOlder: page.hasOlder || kept.length < page.messages.length,
  });
  for (const old of recent.keys()) {
    if (recent.size <= RECENT) {
      break;
    }
    recent.delete(old);
  }
}

export const kept = (account: number, id: number) => recent.get(keyOf(account, id));

/** The page read ahead of this open, if any (taken: it serves one open only). */
export function takeAhead(account: number, id: number) {
  const key = keyOf(account, id);
  const page = prefetching.get(key);
  prefetching.delete(key);
  return page;
}

/** Whether a page of this many messages may have older ones before it. */
export const mayHaveOlder = (count: number) => count >= PAGE;

const latestPage = (account: number, id: number): Promise<Page> =>
  request<{ payload: Message[] }>(acct(account, `/conversations/${id}/messages`)).then(
    ({ payload }) => ({
      messages: payload,
      lastSeq: Math.max(0, ...payload.map((m) => m.seq ?? 0)),
      hasOlder: mayHaveOlder(payload.length),
    }),
  );

/**
 * The latest messages of a conversation the agent is about to open (the pointer went down on
 * its row; the click follows ~100 ms later): the open takes them instead of asking again.
 */
export function prefetch(account: number, id: number) {
  const key = keyOf(account, id);
  if (recent.has(key) || prefetching.has(key)) {
    return;
  }
  const session = token.peek();
  const page = latestPage(account, id).then(
    (p) => (token.peek() === session ? p : null),
    () => null,
  );
  prefetching.set(key, page);
  // Only for the open that follows: a page left unused goes stale.
  void page.then(() =>
    setTimeout(() => {
      if (prefetching.get(key) === page) {
        prefetching.delete(key);
      }
    }, 5_000),
  );
}
