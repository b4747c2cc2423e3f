/**
 * The thread's window: only the messages in view (plus a margin) are in the DOM, as the list
 * does with its rows. Messages vary in height, so each one's height is measured once rendered
 * and estimated (the mean of those measured) until then. Pure numbers, no DOM: Thread.tsx
 * measures and scrolls.
 */

/** Where the view is: a message's key and how far its top is above the view's top; null: the bottom. */
export type Anchor = { key: number; offset: number } | null;

/** Pixels rendered beyond each edge of the view, so a scroll step shows what is there at once. */
export const OVERSCAN_PX = 800;

/** A message's height before it was ever measured, with nothing measured yet. */
export const FIRST_GUESS = 64;

/** The estimate for an unmeasured message: the mean of the measured ones. */
export function estimate(heights: Map<number, number>): number {
  if (heights.size === 0) {
    return FIRST_GUESS;
  }
  let sum = 0;
  for (const h of heights.values()) {
    sum += h;
  }
  return sum / heights.size;
}

/** Each message's top (tops[i]), and the total at tops[keys.length]. */
export function tops(keys: number[], heights: Map<number, number>): number[] {
  const guess = estimate(heights);
  const out = new Array<number>(keys.length + 1);
  let at = 0;
  for (let i = 0; i < keys.length; i++) {
    out[i] = at;
    at += heights.get(keys[i] as number) ?? guess;
  }
  out[keys.length] = at;
  return out;
}

/** The index of the message at `y` (the last one whose top is at or above it). */
export function indexAt(t: number[], y: number): number {
  let lo = 0;
  let hi = t.length - 2;
  if (hi < 0) {
    return 0;
  }
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((t[mid] as number) <= y) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

/** The scroll position an anchor stands for (the bottom when it is null or its message left). */
export function scrollFor(keys: number[], t: number[], anchor: Anchor, viewport: number): number {
  const bottom = Math.max(0, (t[keys.length] as number) - viewport);
  if (anchor === null) {
    return bottom;
  }
  const i = keys.indexOf(anchor.key);
  return i < 0 ? bottom : Math.min(bottom, Math.max(0, (t[i] as number) - anchor.offset));
}

/** The anchor of a scroll position: the message at its top. */
export function anchorAt(keys: number[], t: number[], scrollTop: number): Anchor {
  if (keys.length === 0) {
    return null;
  }
  const i = indexAt(t, scrollTop);
  return { key: keys[i] as number, offset: (t[i] as number) - scrollTop };
}

/** Which messages to render ([first, last)) for a view at `scrollTop` of `viewport` pixels. */
export function windowAt(
  t: number[],
  scrollTop: number,
  viewport: number,
): { first: number; last: number } {
  const n = t.length - 1;
  if (n <= 0) {
    return { first: 0, last: 0 };
  }
  const first = indexAt(t, Math.max(0, scrollTop - OVERSCAN_PX));
  const last = Math.min(n, indexAt(t, scrollTop + viewport + OVERSCAN_PX) + 1);
  return { first, last };
}
