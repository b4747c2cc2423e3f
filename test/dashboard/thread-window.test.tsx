import { render } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import { conversation, messages } from "../../dashboard/src/state/thread";
import { Thread } from "../../dashboard/src/ui/Thread";
import {
  anchorAt,
  estimate,
  FIRST_GUESS,
  indexAt,
  OVERSCAN_PX,
  scrollFor,
  tops,
  windowAt,
} from "../../dashboard/src/ui/thread-window";
import { conversationOf, messageOf } from "./fixtures";

const keysOf = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

describe("the thread's window (pure)", () => {
  it("places measured messages by their height and the rest by the mean of those measured", () => {
    const none = new Map<number, number>();
    expect(estimate(none)).toBe(FIRST_GUESS);
    expect(tops([1, 2, 3], none)).toEqual([0, FIRST_GUESS, 2 * FIRST_GUESS, 3 * FIRST_GUESS]);
    const some = new Map([
      [1, 40],
      [3, 100],
    ]);
    // 2 and 4 are unmeasured: (40 + 100) / 2 each.
    expect(tops([1, 2, 3, 4], some)).toEqual([0, 40, 110, 210, 280]);
    expect(indexAt([0, 40, 110, 210, 280], 0)).toBe(0);
    expect(indexAt([0, 40, 110, 210, 280], 109)).toBe(1);
    expect(indexAt([0, 40, 110, 210, 280], 110)).toBe(2);
    expect(indexAt([0, 40, 110, 210, 280], 5_000)).toBe(3);
    expect(indexAt([0], 10)).toBe(0);
  });

  it("renders the view and a margin only: a few dozen of 1,000 messages, wherever the view is", () => {
    const keys = keysOf(1000);
    const t = tops(keys, new Map());
    const viewport = 800;
    for (const at of [0, 20_000, (t[1000] as number) - viewport]) {
      const { first, last } = windowAt(t, at, viewport);
      expect(last - first).toBeLessThanOrEqual(Math.ceil((viewport + 2 * OVERSCAN_PX) / 64) + 2);
      // The view itself is always inside the window.
      expect(t[first]).toBeLessThanOrEqual(at);
      expect(t[last]).toBeGreaterThanOrEqual(Math.min(at + viewport, t[1000] as number));
    }
    expect(windowAt([0], 0, viewport)).toEqual({ first: 0, last: 0 });
  });

  it("keeps the message being read in place when older ones come in above it, or heights change", () => {
    const heights = new Map<number, number>();
    const keys = keysOf(20, 981);
    const t = tops(keys, heights);
    // The agent reads message 990, 10 px of it above the view.
    const reading = anchorAt(keys, t, (t[9] as number) + 10);
    expect(reading).toEqual({ key: 990, offset: -10 });
    const more = [...keysOf(20, 961), ...keys];
    const after = tops(more, heights);
    expect(scrollFor(more, after, reading, 100)).toBe((after[29] as number) + 10);
    // Measured heights above it (taller than guessed) move its top; the view follows it.
    for (const k of keysOf(20, 961)) {
      heights.set(k, 150);
    }
    const measured = tops(more, heights);
    expect(scrollFor(more, measured, reading, 100)).toBe((measured[29] as number) + 10);
    // No anchor, or its message gone: the bottom.
    expect(scrollFor(more, measured, null, 800)).toBe((measured[40] as number) - 800);
    expect(scrollFor(more, measured, { key: 5, offset: 0 }, 800)).toBe(
      (measured[40] as number) - 800,
    );
  });
});

const message = (id: number) => messageOf(id, { conversation_id: 9, message_type: id % 2 });
const record = conversationOf(9, { updated_at: 1_700_001_000, last_activity_at: 1_700_001_000 });

afterEach(() => {
  conversation.value = null;
  messages.value = [];
});

describe("the thread of a 1,000-message conversation", () => {
  it("puts only the newest messages and a margin in the DOM, in reading order, padded for the rest", () => {
    conversation.value = record;
    messages.value = Array.from({ length: 1000 }, (_, i) => message(i + 1));
    const { container } = render(<Thread accountId={1} />);
    const items = [...container.querySelectorAll(".thread li")];
    expect(items.length).toBeGreaterThan(10);
    expect(items.length).toBeLessThan(60);
    const ids = items.map((li) => Number((li as HTMLElement).dataset.id));
    // The newest message is shown, the others before it in order, none twice.
    expect(ids.at(-1)).toBe(1000);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const ol = container.querySelector(".thread") as HTMLElement;
    expect(ol.dataset.loaded).toBe("1000");
    expect(Number.parseFloat(ol.style.paddingTop)).toBeGreaterThan(0);
    expect(ol.getAttribute("aria-live")).toBeNull();
    expect(container.querySelector(".sr[aria-live=polite]")).not.toBeNull();
  });
});
