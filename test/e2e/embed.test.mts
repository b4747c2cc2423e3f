// Embedding: one tag on a customer's page (another site, strict CSP), what it loads and leaks,
// small screens, and the demo page. Headless Chromium against `wrangler dev` (global-setup.mts).
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { gzipped, OPEN_CHAT_BUDGET, OPEN_CHAT_REQUESTS } from "./budget.mts";
import { chat, INBOX, launchChromium, launcher, openHost, shot, watchErrors } from "./harness.mts";
import { explainFailure } from "./trail.mts";

// A failed test prints what its widget pages did (trail.mts).
beforeEach((ctx) => explainFailure(ctx));

const base = inject("parleyBase");
const hostUrl = inject("hostUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe("the launcher", () => {
  it("paints from one script, loads nothing more before interaction, leaks only $parley", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const requests: string[] = [];
    page.on("request", (r) => {
      if (r.url().startsWith(base)) {
        requests.push(new URL(r.url()).pathname);
      }
    });
    await page.addInitScript(() => {
      (window as unknown as { __before: string[] }).__before = Object.getOwnPropertyNames(window);
    });
    await page.goto(hostUrl);
    await launcher(page).waitFor();
    expect(await launcher(page).getAttribute("aria-label")).toBe("Open chat");
    expect(await launcher(page).getAttribute("aria-expanded")).toBe("false");
    await page.waitForTimeout(500);
    expect(requests).toEqual(["/widget.js"]);
    const added = await page.evaluate(() => {
      const before = new Set((window as unknown as { __before: string[] }).__before);
      return Object.getOwnPropertyNames(window).filter((k) => !before.has(k) && k !== "__before");
    });
    expect(added).toEqual(["$parley"]);
    await shot(page, "launcher-closed");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the open chat", () => {
  it(`arrives in at most ${OPEN_CHAT_REQUESTS} requests and ${OPEN_CHAT_BUDGET} bytes gzipped`, async () => {
    const context = await browser.newContext();
    const assets: string[] = [];
    context.on("request", (r) => {
      const url = new URL(r.url());
      if (url.origin === base && !url.pathname.startsWith("/public/")) {
        assets.push(url.pathname);
      }
    });
    const { page } = await openHost(context, hostUrl);
    await launcher(page).click();
    await chat(page).locator("textarea").waitFor();
    await chat(page).locator(".pw-head h1").waitFor();
    expect(assets).toHaveLength(OPEN_CHAT_REQUESTS);
    const bytes = assets
      .map((p) => (p === "/frame" ? "/frame.html" : p))
      .reduce((sum, p) => sum + gzipped(p), 0);
    expect(bytes).toBeLessThanOrEqual(OPEN_CHAT_BUDGET);
    await context.close();
  });
});

describe("small screens", () => {
  it("opens full-screen and closes from the header", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 760 } });
    const { page, errors } = await openHost(context, hostUrl);
    await launcher(page).click();
    await chat(page).locator("textarea").waitFor();
    const box = await page.locator("parley-widget iframe").boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 390, height: 760 });
    expect(await launcher(page).isVisible()).toBe(false);
    await shot(page, "chat-mobile");
    await chat(page).getByRole("button", { name: "Close chat" }).click();
    await launcher(page).waitFor();
    expect(await page.locator("parley-widget iframe").isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the demo page", () => {
  it("embeds the widget under its own strict CSP", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const response = await page.goto(`${base}/demo?inbox=${INBOX}`);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await launcher(page).click();
    await chat(page).locator("textarea").waitFor();
    await chat(page).getByText("Hi there!").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
