// Keys typed right after opening the chat reach it, however the open and the loading of the
// chat's frame interleave. The loader used to focus the frame while it was still loading: when
// that fell in the few milliseconds in which Chromium swaps the loading frame for the chat's own
// process, both documents said the chat had the focus and every key went to the host page (a
// visitor's first message was never sent, and Escape did not close the chat: CI runs 23 and 37).
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { chat, chatFrame, launchChromium, launcher, openHost } from "./harness.mts";
import { explainFailure } from "./trail.mts";

// A failed test prints what its widget pages did (trail.mts).
beforeEach((ctx) => explainFailure(ctx));

const hostUrl = inject("hostUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** Milliseconds between the frame's document arriving and the visitor pressing Enter. */
const OFFSETS = Array.from({ length: 24 }, (_, i) => i);

describe("opening the chat while its frame loads", () => {
  it("sends every key to the chat's composer, for each moment of the open", async () => {
    const lost: number[] = [];
    for (const offset of OFFSETS) {
      const context = await browser.newContext();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let asked = () => {};
      const requested = new Promise<void>((resolve) => {
        asked = resolve;
      });
      // The frame's document is held until the test lets it go, so the open can be placed
      // right after it, millisecond by millisecond.
      await context.route("**/frame", async (route) => {
        asked();
        await held;
        await route.continue();
      });
      const { page } = await openHost(context, hostUrl);
      await launcher(page).focus(); // the launcher starts loading the frame on focus
      await requested;
      release();
      await new Promise((resolve) => setTimeout(resolve, offset));
      await page.keyboard.press("Enter");
      await expect
        .poll(() => chatFrame(page).evaluate(() => document.activeElement?.id))
        .toBe("pw-input");
      await page.keyboard.type("abc");
      const input = chat(page).locator("textarea");
      const typed = await expect
        .poll(() => input.inputValue(), { timeout: 5000 })
        .toBe("abc")
        .then(() => true)
        .catch(() => false);
      if (!typed) {
        lost.push(offset);
      }
      expect(await launcher(page).getAttribute("aria-expanded")).toBe("true");
      await context.close();
    }
    expect(lost, "offsets (ms) at which the typed keys never reached the chat").toEqual([]);
  }, 300_000);
});
