// Dashboard apps in the agents' app (docs/agent-tools.md): an app is a page on another origin
// (here a loopback server, as a developer's), shown in a tab beside the conversation, and sent
// Chatwoot's `appContext` by postMessage when it asks and when the agent opens another
// conversation. All against a real `wrangler dev` in headless Chromium.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, FrameLocator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "./axe.mts";
import {
  ADA,
  adaApi,
  listRow,
  signIn,
  startDashboardWorld,
  visitorConversation,
} from "./dashboard-world.mts";
import { launchChromium } from "./harness.mts";

let world: Awaited<ReturnType<typeof startDashboardWorld>>;
let browser: Browser;
let app: { url: string; stop: () => Promise<void> };

/**
 * The app's page, as a CRM would write it against Chatwoot: it asks for the context on load and
 * on its button, and shows each appContext it gets (with the sender's origin) as a list item.
 */
const APP_PAGE = `<!doctype html><meta charset="utf-8"><title>Orders</title>
<button id="ask" type="button">Ask</button><ol id="got"></ol>
<script>
  addEventListener("message", (e) => {
    let ctx;
    try { ctx = JSON.parse(e.data); } catch { return; }
    if (ctx.event !== "appContext") return;
    const li = document.createElement("li");
    const d = ctx.data;
    li.textContent = [d.conversation.id, d.contact && d.contact.name, d.currentAgent.email,
      d.conversation.messages.map((m) => m.content).join("|"), e.origin].join(" / ");
    document.getElementById("got").append(li);
  });
  const ask = () => parent.postMessage("chatwoot-dashboard-app:fetch-info", "*");
  document.getElementById("ask").addEventListener("click", ask);
  ask();
</script>`;

async function startApp() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(APP_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/orders`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const conversationOf = (name: string, content: string) =>
  visitorConversation(world.base, { name }, [content]);

/** The contexts the app's frame has shown, in order. */
const received = async (frame: FrameLocator) => frame.locator("#got li").allTextContents();

beforeAll(async () => {
  world = await startDashboardWorld("e2e-dashboard-apps");
  browser = await launchChromium();
  app = await startApp();
});

afterAll(async () => {
  await browser?.close();
  await world?.stop();
  await app?.stop();
});

describe("dashboard apps", () => {
  it("shows the app in a tab and sends it the conversation's context on request and on change", async () => {
    const ada = adaApi(world.base);
    await ada("POST", "/dashboard_apps", {
      dashboard_app: { title: "Orders", content: [{ type: "frame", url: app.url }] },
    });
    const first = await conversationOf("Grace Visitor", "Where is order 1001?");
    const second = await conversationOf("Henry Visitor", "Refund for 2002 please");

    const { page, errors, context } = await signIn(browser, world.base, ADA);
    await page.goto(`${world.base}/app/accounts/1/conversations/${first}`);
    await page.locator(".thread .msg", { hasText: "Where is order 1001?" }).waitFor();
    // No frame until the tab is opened; the messages until then.
    expect(await page.locator("iframe").count()).toBe(0);
    expect(await violations(page), "tabs").toEqual([]);
    await page.getByRole("tab", { name: "Orders" }).click();
    const iframe = page.locator('iframe[title="Orders"]');
    await iframe.waitFor();
    expect(await iframe.getAttribute("sandbox")).not.toMatch(/allow-top-navigation/);
    expect(await page.locator(".messages").isVisible()).toBe(false);
    expect(await violations(page), "app open").toEqual([]);

    const frame = page.frameLocator('iframe[title="Orders"]');
    const origin = new URL(world.base).origin;
    const firstContext = `${first} / Grace Visitor / ${ADA.email} / Where is order 1001? / ${origin}`;
    // Two on load, in either order: the answer to the page's own ask, and the frame's load.
    await expect.poll(() => received(frame)).toEqual([firstContext, firstContext]);
    await frame.locator("#ask").click();
    await expect.poll(() => received(frame)).toEqual([firstContext, firstContext, firstContext]);

    // Another conversation, picked in the list: the open app hears of it without asking.
    await page.getByRole("tab", { name: /Unassigned/ }).click();
    await listRow(page, second).click();
    // With its messages too, once they have come.
    await expect
      .poll(async () => (await received(frame)).at(-1))
      .toBe(`${second} / Henry Visitor / ${ADA.email} / Refund for 2002 please / ${origin}`);
    // The frame stayed (no reload): its earlier contexts are still listed.
    expect((await received(frame)).slice(0, 3)).toEqual([firstContext, firstContext, firstContext]);

    await page.getByRole("tab", { name: "Messages" }).click();
    await page.locator(".thread .msg", { hasText: "Refund for 2002 please" }).waitFor();
    expect(await iframe.isVisible()).toBe(false);
    // The CSP let the frame in; nothing was refused or thrown.
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an agent sees no tab when the account has no app", async () => {
    const ada = adaApi(world.base);
    for (const a of (await ada("GET", "/dashboard_apps")) as { id: number }[]) {
      await ada("DELETE", `/dashboard_apps/${a.id}`);
    }
    const id = await conversationOf("Ivy Visitor", "Hello");
    const { page, errors, context } = await signIn(browser, world.base, ADA);
    await page.goto(`${world.base}/app/accounts/1/conversations/${id}`);
    await page.locator(".thread .msg", { hasText: "Hello" }).waitFor();
    expect(await page.getByRole("tab", { name: "Messages" }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
