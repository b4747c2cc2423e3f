// The look tests' plumbing: one Chromium per file, the baselines in docs/widget/ and a pixel
// comparison. `UPDATE_SCREENSHOTS=1` rewrites the baselines after a deliberate change.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { chat, chatFrame, launchChromium, launcher, openHost } from "./harness.mts";

const hostUrl = inject("hostUrl");
const BASELINES = path.join(import.meta.dirname, "../../docs/widget");
/** The service's own pages' baselines (front door, /docs, help center, sign-in pages). */
export const SURFACES = path.join(import.meta.dirname, "../../docs/surfaces");
const UPDATE = process.env.UPDATE_SCREENSHOTS === "1";
/** Share of pixels allowed to differ (anti-aliasing, font hinting), and by how much. */
const TOLERANCE = 0.01;
const CHANNEL_DELTA = 48;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
/** The chat's corner on a desktop page (the panel and the launcher). */
export const CORNER = { x: DESKTOP.width - 430, y: DESKTOP.height - 800, width: 430, height: 800 };

let browser: Browser;
let differ: Page;

/** One Chromium for a test file's screenshots (and a page that compares them). */
export function useBrowser() {
  beforeAll(async () => {
    browser = await launchChromium();
    differ = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });
}

/** The share of pixels that differ noticeably between two PNGs (1 when the sizes differ). */
function difference(a: Buffer, b: Buffer): Promise<number> {
  return differ.evaluate(
    async ([x, y, delta]) => {
      const load = async (b64: string) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        return img;
      };
      const [one, two] = await Promise.all([load(x as string), load(y as string)]);
      if (one.width !== two.width || one.height !== two.height) {
        return 1;
      }
      const pixels = (img: HTMLImageElement) => {
        const canvas = new OffscreenCanvas(img.width, img.height);
        const g = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D;
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, img.width, img.height).data;
      };
      const [p, q] = [pixels(one), pixels(two)];
      let off = 0;
      for (let i = 0; i < p.length; i += 4) {
        const d =
          Math.abs((p[i] ?? 0) - (q[i] ?? 0)) +
          Math.abs((p[i + 1] ?? 0) - (q[i + 1] ?? 0)) +
          Math.abs((p[i + 2] ?? 0) - (q[i + 2] ?? 0));
        if (d > (delta as number)) {
          off++;
        }
      }
      return off / (p.length / 4);
    },
    [a.toString("base64"), b.toString("base64"), CHANNEL_DELTA] as const,
  );
}

/** Pins times and day separators to fixed text, so the picture does not depend on the clock. */
async function pinClock(page: Page) {
  if (!page.frames().some((f) => f.url().includes("/frame"))) {
    return;
  }
  await chatFrame(page)
    .evaluate(() => {
      for (const t of Array.from(document.querySelectorAll("time"))) {
        t.textContent = "10:30";
      }
      for (const li of Array.from(document.querySelectorAll(".pw-activity"))) {
        if (/^\D+ \d{1,2}$|^\d{1,2} \D+$/.test(li.textContent ?? "")) {
          li.textContent = "November 24";
        }
      }
      (document.activeElement as HTMLElement | null)?.blur();
    })
    .catch(() => {});
}

/** Compares (or writes) docs/widget/<name>.png (or `<dir>/<name>.png`, dir under docs/). */
export async function expectLook(page: Page, name: string, clip?: typeof CORNER, dir = BASELINES) {
  await pinClock(page);
  await page.waitForTimeout(150);
  const png = await page.screenshot({ clip, animations: "disabled", caret: "hide" });
  const file = path.join(dir, `${name}.png`);
  if (UPDATE || !existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, png);
    return;
  }
  const share = await difference(png, readFileSync(file));
  if (share > TOLERANCE) {
    writeFileSync(path.join(import.meta.dirname, "screenshots", `${name}.actual.png`), png);
  }
  expect(share, `${name}: ${(share * 100).toFixed(2)}% of pixels differ`).toBeLessThanOrEqual(
    TOLERANCE,
  );
}

export async function newVisitor(options: { mobile?: boolean; dark?: boolean; url?: string }) {
  const context = await browser.newContext({
    viewport: options.mobile ? PHONE : DESKTOP,
    colorScheme: options.dark ? "dark" : "light",
    reducedMotion: "reduce",
  });
  const { page, errors } = await openHost(context, options.url ?? hostUrl);
  return { context, page, errors };
}

/** A fresh context at the desktop or phone size, light or dark, without motion. */
export function lookContext(options: { mobile?: boolean; dark?: boolean }) {
  return browser.newContext({
    viewport: options.mobile ? PHONE : DESKTOP,
    colorScheme: options.dark ? "dark" : "light",
    reducedMotion: "reduce",
  });
}

/** The four looks every page is checked in. */
export const LOOKS = [
  ["desktop-light", {}],
  ["desktop-dark", { dark: true }],
  ["phone-light", { mobile: true }],
  ["phone-dark", { mobile: true, dark: true }],
] as const;

export async function openChat(page: Page) {
  await launcher(page).click();
  await chat(page).locator("textarea").waitFor();
}
