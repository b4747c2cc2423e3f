// Issue 13, point 5: the widget of an inbox linked to a help-center portal opens on a home with
// a search box and the popular articles; an article opens inside the chat (its HTML rebuilt from
// an allow-list), Back returns, "Chat with us" leads to the composer. The help center is a lazy
// chunk: inboxes without a portal never fetch it (embed.test.mts counts their requests).
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { chat, chatFrame, launchChromium, launcher, watchErrors } from "./harness.mts";
import { XSS_PAYLOADS } from "./help-center-xss-payloads.mts";
import { ARTICLES, createWidgetInbox, linkPortal } from "./help-world.mts";

const base = inject("parleyBase");
/** The chunk, the articles and the search answer from a busy test machine. */
const POLL = { timeout: 10_000 };

let browser: Browser;
let inbox: string;

beforeAll(async () => {
  browser = await launchChromium();
  const created = await createWidgetInbox(base, "Help desk", [["Ann Lee", "online"]]);
  await linkPortal(base, created.id);
  inbox = created.identifier;
});

afterAll(async () => {
  await browser?.close();
});

async function openHome(page: Page) {
  await page.goto(`${base}/demo?inbox=${inbox}`);
  await launcher(page).click();
  await chat(page).locator(".pw-articles li").first().waitFor();
}

const focused = (page: Page) =>
  chatFrame(page).evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return `${el?.tagName ?? ""} ${el?.textContent?.trim() ?? ""}`;
  });

describe("the widget's help-center home", () => {
  it("lists the articles, searches, opens one inside the chat, and leads on to the chat", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const chunks: string[] = [];
    page.on("request", (r) => {
      if (/\/assets\/.*\.js$/.test(r.url())) {
        chunks.push(r.url());
      }
    });
    await openHome(page);
    const frame = chat(page);
    // The home: a labelled search box (focused on open), the popular articles as buttons.
    const search = frame.getByRole("searchbox", { name: "Search for help" });
    await expect
      .poll(() => search.evaluate((el) => el === document.activeElement), POLL)
      .toBe(true);
    await expect.poll(() => frame.locator(".pw-articles li").count(), POLL).toBe(3);
    expect(await frame.getByRole("heading", { name: "Popular articles" }).count()).toBe(1);
    for (const a of ARTICLES) {
      expect(await frame.getByRole("button", { name: new RegExp(a.title) }).count()).toBe(1);
    }
    expect(chunks.some((u) => /\/Home-[\w-]+\.js$/.test(u))).toBe(true);

    await search.fill("return");
    await frame.getByRole("heading", { name: "Search results" }).waitFor();
    await expect.poll(() => frame.locator(".pw-articles li").count(), POLL).toBe(1);
    await search.fill("no such thing anywhere");
    await frame.getByText("No articles found.").waitFor();
    await search.fill("");
    await expect.poll(() => frame.locator(".pw-articles li").count(), POLL).toBe(3);

    // An article: its title takes the focus, the body is the portal's HTML, links are safe.
    await frame.getByRole("button", { name: /Track your order/ }).click();
    const title = frame.getByRole("heading", { name: "Track your order", level: 2 });
    await title.waitFor();
    await expect.poll(() => focused(page), POLL).toBe("H2 Track your order");
    expect(await frame.locator(".pw-article strong").first().textContent()).toBe("Orders");
    expect(await frame.locator(".pw-article h3").textContent()).toBe("Delivery times");
    const link = frame.locator(".pw-article a");
    expect(await link.getAttribute("href")).toBe("https://example.com/carriers");
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer nofollow");

    // Back: the list again, the focus on the article's button.
    await frame.getByRole("button", { name: "Back" }).click();
    await expect.poll(() => focused(page), POLL).toMatch(/^BUTTON Track your order/);

    // Still need help: the conversation's composer, focused.
    await frame.getByRole("button", { name: /Track your order/ }).click();
    await title.waitFor();
    await frame.getByRole("button", { name: "Chat with us" }).click();
    const composer = frame.locator("textarea");
    await composer.waitFor();
    await expect
      .poll(() => composer.evaluate((el) => el === document.activeElement), POLL)
      .toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("runs no script from a hostile article (the server's sanitiser bypassed)", async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      const w = window as unknown as { __pwned: () => void; __pwnedCount: number };
      w.__pwnedCount = 0;
      w.__pwned = () => {
        w.__pwnedCount++;
      };
    });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // The article's JSON answers raw payloads, as if the server had let them all through.
    await page.route(/\/hc\/[^/]+\/articles\/[^/]+\.json$/, (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({
          id: 1,
          title: "Hostile",
          slug: "track-your-order",
          description: null,
          locale: "en",
          url: `${base}/hc/x/articles/track-your-order`,
          html: XSS_PAYLOADS.map((p) => `<p>${p}</p>${p}`).join("\n"),
          updated_at: 0,
        }),
      }),
    );
    await openHome(page);
    const frame = chat(page);
    await frame.getByRole("button", { name: /Track your order/ }).click();
    await frame.getByRole("heading", { name: "Hostile", level: 2 }).waitFor();
    // Hover and focus everything in the article, then give handlers and timers time to fire.
    const nodes = frame.locator(".pw-article *");
    for (let i = 0; i < Math.min(await nodes.count(), 30); i++) {
      await nodes
        .nth(i)
        .hover({ timeout: 100 })
        .catch(() => {});
    }
    await page.waitForTimeout(500);
    const counts = await Promise.all(
      page
        .frames()
        .map((f) =>
          f.evaluate(() => (window as unknown as { __pwnedCount?: number }).__pwnedCount ?? 0),
        ),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(0);
    expect(dialogs).toEqual([]);
    const found = await chatFrame(page).evaluate(() => {
      const root = document.querySelector(".pw-article") as HTMLElement;
      const bad = root.querySelectorAll(
        "script, style, iframe, object, embed, svg, math, form, input, base, meta, link",
      ).length;
      const attrs = Array.from(root.querySelectorAll("*")).flatMap((el) =>
        Array.from(el.attributes)
          .filter((a) => /^on/i.test(a.name) || /^\s*(javascript|data|vbscript):/i.test(a.value))
          .map((a) => `${el.tagName} ${a.name}`),
      );
      return { bad, attrs, text: root.textContent?.length ?? 0 };
    });
    expect(found).toEqual({ bad: 0, attrs: [], text: expect.any(Number) });
    await context.close();
  });
});
