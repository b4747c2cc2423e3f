// The agents' app as a support team uses it: two agents signed in to /app in Chromium, a visitor
// in the widget on a customer's page of another site, all against a real `wrangler dev`.
import type { Browser, Page, WebSocketRoute } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ADA,
  BOB,
  listRow,
  signIn,
  startDashboardWorld,
  threadMessage,
} from "./dashboard-world.mts";
import { bubble, chat, launchChromium, launcher, openHost, shot } from "./harness.mts";
import { explainFailure } from "./trail.mts";

// A failed test prints what its widget pages did (trail.mts).
beforeEach((ctx) => explainFailure(ctx));

let world: Awaited<ReturnType<typeof startDashboardWorld>>;
let browser: Browser;

beforeAll(async () => {
  world = await startDashboardWorld("e2e-dashboard");
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await world?.stop();
});

describe("the agents' app", () => {
  let ada: Awaited<ReturnType<typeof signIn>>;
  let bob: Awaited<ReturnType<typeof signIn>>;
  let visitor: { page: Page; errors: string[] };
  let id: number;
  /** Bob's sockets, through a cuttable line: while `refuse`, new ones are closed at once. */
  const bobSockets = new Set<WebSocketRoute>();
  let refuse = false;

  beforeAll(async () => {
    ada = await signIn(browser, world.base, ADA);
    bob = await signIn(browser, world.base, BOB);
    await bob.context.routeWebSocket(/\/live/, (ws) => {
      if (refuse) {
        ws.close();
        return;
      }
      const server = ws.connectToServer();
      bobSockets.add(ws);
      ws.onClose(() => {
        bobSockets.delete(ws);
        server.close();
      });
      server.onClose(() => ws.close());
    });
    // Bob's list opened before the route: reload so his sockets take the cuttable line.
    await bob.page.reload();
    await bob.page.locator(".tabs").waitFor();
    const vctx = await browser.newContext();
    visitor = await openHost(vctx, world.hostUrl);
  });

  it("shows a visitor's new conversation live in Ada's list, and its message in the thread", async () => {
    await ada.page.getByRole("tab", { name: /Unassigned/ }).click();
    await launcher(visitor.page).click();
    const input = chat(visitor.page).locator("textarea");
    await input.fill("Hello, my parcel has not arrived");
    await input.press("Enter");
    const row = ada.page.locator(".row", { hasText: "Hello, my parcel has not arrived" });
    await row.waitFor({ timeout: 30_000 });
    id = Number(await row.getAttribute("data-id"));
    expect(await row.locator(".badge").count()).toBe(1);
    await row.click();
    await threadMessage(ada.page, "Hello, my parcel has not arrived").waitFor();
    expect(new URL(ada.page.url()).pathname).toBe(`/app/accounts/1/conversations/${id}`);
  });

  it("a reload of the deep link shows the same conversation", async () => {
    await ada.page.reload();
    await threadMessage(ada.page, "Hello, my parcel has not arrived").waitFor();
  });

  it("Ada's reply reaches the widget; her private note never does", async () => {
    await ada.page.locator("#composer").fill("Sorry to hear that! Checking **now**.");
    await ada.page.locator("#composer").press("Enter");
    await bubble(visitor.page, "Sorry to hear that").waitFor();
    await ada.page.locator("#mode-note").click();
    await ada.page.locator("#composer").fill("internal: courier lost it");
    await ada.page.locator("#composer").press("Enter");
    await ada.page.locator(".thread .msg.note", { hasText: "courier lost it" }).waitFor();
    await ada.page.locator("#mode-reply").click();
    await ada.page.locator("#composer").fill("Found it: it arrives tomorrow.");
    await ada.page.locator("#composer").press("Enter");
    // The widget has the reply sent after the note, so it would have had the note by now.
    await bubble(visitor.page, "arrives tomorrow").waitFor();
    expect(await chat(visitor.page).getByText("courier lost it").count()).toBe(0);
    // Each message once in Ada's thread (socket frame, ack and HTTP never double it).
    expect(await threadMessage(ada.page, "arrives tomorrow").count()).toBe(1);
  });

  it("a visitor's message in a conversation Ada has not open moves her list at once", async () => {
    await ada.page.locator(".brand a").click();
    await ada.page.locator(".thread-pane.placeholder").waitFor();
    // Her reply may have made it hers (Chatwoot's rule): All holds it either way.
    await ada.page.getByRole("tab", { name: /All/ }).click();
    await listRow(ada.page, id).waitFor();
    const input = chat(visitor.page).locator("textarea");
    await input.fill("Is it still tomorrow?");
    await input.press("Enter");
    // Well within the list's 60 s re-read: only the feed's message.created can do it.
    const row = listRow(ada.page, id);
    await row
      .locator(".preview", { hasText: "Is it still tomorrow?" })
      .waitFor({ timeout: 10_000 });
    expect(await row.locator(".badge").textContent()).toMatch(/^1/);
    await row.click();
    await threadMessage(ada.page, "Is it still tomorrow?").waitFor();
  });

  it("assigning to Bob puts it in Bob's Mine, live", async () => {
    await expect
      .poll(() => bob.page.getByRole("tab", { name: /Mine/ }).getAttribute("aria-selected"))
      .toBe("true");
    expect(await listRow(bob.page, id).count()).toBe(0);
    await ada.page.locator("#assign-agent").selectOption({ label: BOB.name });
    await listRow(bob.page, id).waitFor({ timeout: 15_000 });
    await listRow(bob.page, id).click();
    await threadMessage(bob.page, "arrives tomorrow").waitFor();
  });

  it("Bob's connection drops and returns: nothing missed, nothing doubled", async () => {
    refuse = true;
    for (const ws of [...bobSockets]) {
      await ws.close();
    }
    await bob.page.locator(".presence", { hasText: "Reconnecting" }).waitFor();
    const input = chat(visitor.page).locator("textarea");
    for (const text of ["Are you there?", "Order 4411"]) {
      await input.fill(text);
      await input.press("Enter");
      // Stored: the widget says Sent, or Read once Ada's open thread has marked it read.
      await bubble(visitor.page, text)
        .locator(".pw-meta", { hasText: /Sent|Read/ })
        .waitFor();
    }
    await ada.page.locator("#composer").fill("Bob has it now.");
    await ada.page.locator("#composer").press("Enter");
    await threadMessage(ada.page, "Bob has it now.").waitFor();
    refuse = false;
    await threadMessage(bob.page, "Bob has it now.").waitFor({ timeout: 30_000 });
    const texts = await bob.page.locator(".thread .msg:not(.pending) .text").allInnerTexts();
    const tail = texts.slice(-3);
    expect(tail).toEqual(["Are you there?", "Order 4411", "Bob has it now."]);
    for (const text of texts) {
      expect(texts.filter((t) => t === text).length, text).toBe(1);
    }
    // The list caught up too (refetched after the feed came back).
    await expect
      .poll(() => listRow(bob.page, id).locator(".preview").innerText())
      .toContain("Bob has it now.");
  });

  it("Bob resolves; the widget shows the conversation ended and Bob's open list lets it go", async () => {
    await shot(bob.page, "dashboard-bob");
    await bob.page.locator("#act-resolve").click();
    await bob.page.locator("#act-reopen").waitFor();
    await chat(visitor.page).getByText("This conversation has ended.").waitFor({ timeout: 15_000 });
    await listRow(bob.page, id).waitFor({ state: "detached" });
    expect(ada.errors).toEqual([]);
    expect(bob.errors.filter((e) => !e.includes("WebSocket"))).toEqual([]);
    expect(visitor.errors).toEqual([]);
  });

  it("signing out forgets the token", async () => {
    await ada.page.getByRole("button", { name: "Sign out" }).click();
    await ada.page.locator("#email").waitFor();
    expect(
      await ada.page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes("token"))),
    ).toEqual([]);
    await ada.page.goto(`${world.base}/app/accounts/1/conversations/${id}`);
    await ada.page.locator("#email").waitFor();
  });
});
