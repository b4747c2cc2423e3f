import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Message } from "../lib/types";
import { profile } from "../state/session";
import { hasOlder, loadOlder } from "../state/thread";
import { type Anchor, anchorAt, scrollFor, tops, windowAt } from "./thread-window";
import { useHeight } from "./useHeight";

/** Within this many pixels of the bottom the view follows new messages; of the top, older load. */
const EDGE = 40;

/**
 * The thread's scrolling: a window of the messages around the view (thread-window.ts), kept at
 * the bottom while the agent is there, else on the message they were reading, also when older
 * messages come in above it or measured heights replace estimates.
 */
export function useThreadWindow(list: Message[], conversationId: number) {
  const scroller = useRef<HTMLElement>(null);
  const listEl = useRef<HTMLOListElement>(null);
  const heights = useRef(new Map<number, number>()).current;
  const anchor = useRef<Anchor>(null);
  const lastSet = useRef(-1);
  const shownFor = useRef(0);
  const viewport = useHeight(scroller);
  const [, redraw] = useState(0);
  if (shownFor.current !== conversationId) {
    shownFor.current = conversationId;
    heights.clear();
    anchor.current = null;
  }
  const keys = list.map((m) => m.id);
  const t = tops(keys, heights);
  const at = scrollFor(keys, t, anchor.current, viewport);
  const { first, last } = windowAt(t, at, viewport);
  const shown = useRef({ keys, t, first, last });
  shown.current = { keys, t, first, last };

  // After every render: measure what is shown, then put the view where the anchor says.
  useLayoutEffect(() => {
    const el = scroller.current;
    const ol = listEl.current;
    if (!el || !ol) {
      return;
    }
    const gap = Number.parseFloat(getComputedStyle(ol).rowGap) || 0;
    let changed = false;
    for (const li of Array.from(ol.children) as HTMLElement[]) {
      const key = Number(li.dataset.id);
      const h = li.offsetHeight;
      if (key && h > 0 && heights.get(key) !== h + gap) {
        heights.set(key, h + gap);
        changed = true;
      }
    }
    const now = changed ? tops(keys, heights) : t;
    if (changed) {
      ol.style.paddingTop = `${now[first]}px`;
      ol.style.paddingBottom = `${(now[keys.length] as number) - (now[last] as number)}px`;
    }
    const to =
      anchor.current === null
        ? el.scrollHeight
        : ol.offsetTop + scrollFor(keys, now, anchor.current, viewport);
    if (Math.abs(el.scrollTop - to) >= 1) {
      el.scrollTop = to;
    }
    lastSet.current = el.scrollTop;
    if (changed) {
      const w = windowAt(now, scrollFor(keys, now, anchor.current, viewport), viewport);
      if (w.first !== first || w.last !== last) {
        redraw((n) => n + 1);
      }
    }
  });

  const onScroll = () => {
    const el = scroller.current;
    const ol = listEl.current;
    if (!el || !ol || Math.abs(el.scrollTop - lastSet.current) < 1) {
      return; // the view was put there by the window itself
    }
    lastSet.current = el.scrollTop;
    const s = shown.current;
    const y = el.scrollTop - ol.offsetTop;
    anchor.current =
      el.scrollHeight - el.scrollTop - el.clientHeight < EDGE ? null : anchorAt(s.keys, s.t, y);
    const w = windowAt(s.t, Math.max(0, y), el.clientHeight || viewport);
    if (w.first !== s.first || w.last !== s.last) {
      redraw((n) => n + 1);
    }
    if (el.scrollTop < EDGE && hasOlder.peek()) {
      void loadOlder();
    }
  };

  return {
    scroller,
    list: listEl,
    onScroll,
    first,
    last,
    padTop: t[first] as number,
    padBottom: (t[keys.length] as number) - (t[last] as number),
  };
}

/**
 * What screen readers hear of the thread: each message that comes in live (not the page read on
 * open, not older ones read on scroll, nor the agent's own), in a live region of its own, since
 * the window adds and removes messages as the agent scrolls.
 */
export function useAnnouncement(list: Message[], conversationId: number): string {
  const seen = useRef({ conversationId: 0, newest: 0 });
  const [said, setSaid] = useState("");
  const newest = list.at(-1);
  useEffect(() => {
    const s = seen.current;
    if (s.conversationId !== conversationId) {
      seen.current = { conversationId, newest: newest?.id ?? 0 };
      setSaid("");
      return;
    }
    if (!newest || newest.id <= s.newest) {
      return;
    }
    const first = s.newest === 0;
    s.newest = newest.id;
    const mine = newest.sender?.type === "user" && newest.sender.id === profile.peek()?.id;
    if (first || mine) {
      return;
    }
    const who = newest.private ? `Private note from ${newest.sender?.name ?? "an agent"}` : "";
    const text = newest.content?.trim() || "an attachment";
    setSaid(`${who || newest.sender?.name || "New message"}: ${text}`);
  }, [conversationId, newest?.id]);
  return said;
}
