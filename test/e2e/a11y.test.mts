// Issue 15, point 7: axe-core finds no accessibility violation of any impact in the chat's frame
// (welcome and conversation, light and dark, desktop and phone; the help-center home and an
// article) nor on the demo page. axe is
// injected with the page's CSP bypassed: the widget's own CSP would (rightly) refuse it.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { violations } from "./axe.mts";
import { agentApi, chat, chatFrame, INBOX, launchChromium, launcher } from "./harness.mts";
import { createWidgetInbox, linkPortal } from "./help-world.mts";

const base = inject("parleyBase");
const hostUrl = inject("hostUrl");
const agent = agentApi(base);
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function openChat(scheme: "light" | "dark", viewport: { width: number; height: number }) {
  const context = await browser.newContext({ bypassCSP: true, colorScheme: scheme, viewport });
  const page = await context.newPage();
  await page.goto(hostUrl);
  await launcher(page).click();
  await page.frameLocator("parley-widget iframe").locator("textarea").waitFor();
  return { context, page };
}

describe("accessibility (axe-core)", () => {
  for (const [scheme, viewport] of [
    ["light", { width: 1280, height: 800 }],
    ["dark", { width: 390, height: 844 }],
  ] as const) {
    it(`finds nothing in the chat, ${scheme}, ${viewport.width} px: welcome, then a conversation`, async () => {
      const { context, page } = await openChat(scheme, viewport);
      expect(await violations(chatFrame(page))).toEqual([]);
      const before = await agent.latestConversation().catch(() => 0);
      const input = page.frameLocator("parley-widget iframe").locator("textarea");
      await input.fill("Hello, is anyone there?");
      await input.press("Enter");
      await page
        .frameLocator("parley-widget iframe")
        .locator(".pw-msg", { hasText: "Hello, is anyone there?" })
        .waitFor();
      // The first message creates this visitor's conversation; wait until it exists.
      let conversation = 0;
      await expect
        .poll(async () => {
          conversation = await agent.latestConversation().catch(() => 0);
          return conversation;
        })
        .toBeGreaterThan(before);
      await agent.reply(conversation, "**Yes**, how can we help?");
      // The inbox's greeting ("Hello! How can we help?") arrives too: only the reply's own
      // words tell the two apart (Playwright's hasText ignores case).
      await page
        .frameLocator("parley-widget iframe")
        .locator(".pw-msg", { hasText: "Yes, how can we help?" })
        .waitFor();
      expect(await violations(chatFrame(page))).toEqual([]);
      await context.close();
    });
  }

  it("finds nothing in the help-center home and an article, light and dark", async () => {
    const inbox = await createWidgetInbox(base, "Help desk a11y", [["Ann Lee", "online"]]);
    await linkPortal(base, inbox.id);
    for (const scheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ bypassCSP: true, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(`${base}/demo?inbox=${inbox.identifier}`);
      await launcher(page).click();
      await chat(page).locator(".pw-articles li").first().waitFor();
      expect(await violations(chatFrame(page))).toEqual([]);
      await chat(page)
        .getByRole("button", { name: /Track your order/ })
        .click();
      await chat(page).locator(".pw-article h3").waitFor();
      expect(await violations(chatFrame(page))).toEqual([]);
      await context.close();
    }
  });

  it("finds nothing on the demo page", async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${base}/demo?inbox=${INBOX}`);
    await launcher(page).waitFor();
    expect(await violations(page)).toEqual([]);
    await context.close();
  });
});
