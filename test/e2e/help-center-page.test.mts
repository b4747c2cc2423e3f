// Issue 24, point 5, in Chromium: "Was this helpful?" under a public article works with
// scripts off (form POSTs) and in place with them on; the portal's linked inbox chats from the
// article page (the widget's one tag under the page's CSP): the launcher shows, a visitor sends
// a message and the agent's side has it, and the agent's reply reaches the chat, whose frame is
// sandboxed there (an opaque origin), and a reply while it is closed shows as a preview. Any
// console error (a CSP refusal included) fails.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { accountCall, chat, chatFrame, launchChromium, launcher, watchErrors } from "./harness.mts";
import { createWidgetInbox, linkPortal } from "./help-world.mts";

const base = inject("parleyBase");
const call = accountCall(base);
/** A busy test machine: pages, the chat frame and the API answer late. */
const POLL = { timeout: 20_000 };

let browser: Browser;
let inbox: { id: number; identifier: string };
let slug: string;

beforeAll(async () => {
  browser = await launchChromium();
  inbox = await createWidgetInbox(base, "Help page chat", [["Ann Lee", "online"]]);
  slug = await linkPortal(base, inbox.id);
});

afterAll(async () => {
  await browser?.close();
});

async function articleId(title: string): Promise<number> {
  const list = await call("GET", `/portals/${slug}/articles?query=${encodeURIComponent(title)}`);
  return (list.payload as { id: number; title: string }[]).find((a) => a.title === title)
    ?.id as number;
}

const feedback = async (id: number) =>
  (await call("GET", `/portals/${slug}/articles/${id}/feedback`)) as {
    payload: { helpful: boolean; comment: string }[];
    meta: { helpful_count: number; not_helpful_count: number };
  };

async function openArticle(page: Page, title: string) {
  await page.goto(`${base}/hc/${slug}/en`);
  await page.getByRole("link", { name: title }).click();
  await page.locator("article h1").waitFor();
  // The vote script is deferred: on a loaded machine a click before it ran posted the form
  // without it (a page load, the no-script path), so wait until the page has loaded.
  await page.waitForLoadState("load");
}

describe("Was this helpful? on the public article", () => {
  it("works with scripts off: a vote, then a comment, each a form POST", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const title = "Return an item";
    const id = await articleId(title);
    await openArticle(page, title);
    // No script runs here, so no launcher either; the question is a plain form.
    await page.getByRole("heading", { name: "Was this article helpful?" }).waitFor();
    await page.getByRole("button", { name: "Yes" }).click();
    await page.waitForURL(/\?feedback=yes#feedback$/);
    await page.getByText("Thanks for your feedback!").waitFor();
    await page.getByLabel("Anything we could add? (optional)").fill("A photo of the label.");
    await page.getByRole("button", { name: "Send" }).click();
    await page.waitForURL(/\?feedback=sent#feedback$/);
    await page.getByText("Thank you, your comment was sent.").waitFor();
    const after = await feedback(id);
    expect(after.meta).toMatchObject({ helpful_count: 1, not_helpful_count: 0 });
    expect(after.payload.map((f) => f.comment)).toEqual(["A photo of the label."]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("works in place with scripts on: no page load, the focus on the thanks", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const title = "Change your delivery address";
    const id = await articleId(title);
    await openArticle(page, title);
    const url = page.url();
    let navigations = 0;
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame()) {
        navigations++;
      }
    });
    await page.getByRole("button", { name: "No" }).click();
    const thanks = page.getByText("Thanks for your feedback!");
    await thanks.waitFor(POLL);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe("fb-h");
    await page.getByLabel("What was missing or unclear? (optional)").fill("Which countries?");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText("Thank you, your comment was sent.").waitFor(POLL);
    expect(page.url()).toBe(url);
    expect(navigations).toBe(0);
    const after = await feedback(id);
    expect(after.meta).toMatchObject({ helpful_count: 0, not_helpful_count: 1 });
    expect(after.payload.map((f) => f.comment)).toEqual(["Which countries?"]);
    // The same visitor voting again (a reload shows the question anew) moves the vote.
    await page.reload();
    await page.getByRole("button", { name: "Yes" }).click();
    await page.getByText("Thanks for your feedback!").waitFor(POLL);
    await expect
      .poll(async () => (await feedback(id)).meta, POLL)
      .toEqual(expect.objectContaining({ helpful_count: 1, not_helpful_count: 0 }));
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("chat on the help center's pages", () => {
  it("shows the launcher on an article page; a visitor sends a message the agent receives, and the reply comes back", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await openArticle(page, "Track your order");
    await launcher(page).waitFor(POLL);
    expect(await launcher(page).getAttribute("aria-expanded")).toBe("false");
    await launcher(page).click();
    // The inbox's portal is this help center: the chat opens on its home, then on the chat.
    const frame = chat(page);
    await frame.getByRole("button", { name: "Chat with us" }).click(POLL);
    const composer = frame.locator("textarea");
    await composer.waitFor(POLL);
    const text = `Where is parcel ${Date.now()}?`;
    await composer.fill(text);
    await composer.press("Enter");
    let conversationId = 0;
    await expect
      .poll(async () => {
        const list = await call("GET", `/conversations?status=all&inbox_id=${inbox.id}`);
        for (const c of (list.data?.payload ?? []) as { id: number }[]) {
          const messages = await call("GET", `/conversations/${c.id}/messages`);
          if ((messages.payload as { content: string | null }[]).some((m) => m.content === text)) {
            conversationId = c.id;
            return true;
          }
        }
        return false;
      }, POLL)
      .toBe(true);
    // On Parley's own origin the frame is sandboxed (an opaque origin, so Chromium gives it a
    // process of its own): its module, API calls and socket all work from origin "null".
    expect(await page.locator("parley-widget iframe").getAttribute("sandbox")).toBe(
      "allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox",
    );
    expect(await chatFrame(page).evaluate(() => self.origin)).toBe("null");
    const reply = `It ships tomorrow ${Date.now()}.`;
    await call("POST", `/conversations/${conversationId}/messages`, {
      content: reply,
      message_type: "outgoing",
    });
    await frame.getByText(reply).waitFor(POLL);
    // Closed, the next reply shows as a preview beside the launcher: the page's CSP lets the
    // loader import it (widget-preview.js).
    await launcher(page).click();
    await expect.poll(() => launcher(page).getAttribute("aria-expanded"), POLL).toBe("false");
    const next = `Tracking number follows ${Date.now()}.`;
    await call("POST", `/conversations/${conversationId}/messages`, {
      content: next,
      message_type: "outgoing",
    });
    await page.locator("parley-widget").getByText(next).waitFor(POLL);
    expect(errors).toEqual([]);
    await context.close();
  });
});
