// A visitor's conversation, as they meet it: headless Chromium, a customer's page on another
// site under a strict CSP, the real Worker (`wrangler dev`, global-setup.mts) and an agent
// answering through the account API.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import {
  ADMIN_TOKEN,
  agentApi,
  bubble,
  chat,
  chatFrame,
  INBOX,
  launchChromium,
  launcher,
  openHost,
  shot,
  startReceiver,
} from "./harness.mts";
import { explainFailure } from "./trail.mts";

const base = inject("parleyBase");
const hostUrl = inject("hostUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});
const agent = agentApi(base);

describe("a visitor's conversation", () => {
  let context: BrowserContext;
  /** How the live-socket proxy of the lost-answer tests treats new sockets. */
  let socketMode: "pass" | "cut-ack" | "refuse" = "pass";
  let page: Page;
  let errors: string[];
  let conversationId: number;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let webhookId: number;

  beforeAll(async () => {
    receiver = await startReceiver();
    webhookId = await agent.createWebhook(receiver.url, ["webwidget_triggered"]);
    context = await browser.newContext();
    ({ page, errors } = await openHost(context, hostUrl));
  });

  beforeEach((ctx) => explainFailure(ctx));

  afterAll(async () => {
    await context.close();
    await agent.deleteWebhook(webhookId);
    await receiver.stop();
  });

  it("opens from the keyboard with the focus in the composer, and sends", async () => {
    await launcher(page).focus();
    await page.keyboard.press("Enter");
    const input = chat(page).locator("textarea");
    await input.waitFor();
    expect(await launcher(page).getAttribute("aria-expanded")).toBe("true");
    await expect
      .poll(() => chatFrame(page).evaluate(() => document.activeElement?.id))
      .toBe("pw-input");
    // The greeting is the server's message on the first one (issue 22), not a card of the widget's.
    expect(await chat(page).getByText("Hello! How can we help?").count()).toBe(0);

    await page.keyboard.type("Hello from the e2e test");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("second line");
    await page.keyboard.press("Enter");
    await bubble(page, "Hello from the e2e test")
      .locator(".pw-meta", { hasText: "Sent" })
      .waitFor();
    expect(await input.inputValue()).toBe("");
    conversationId = await agent.latestConversation();
    // The inbox's greeting arrives as a message, once, and the agents see the same message.
    await bubble(page, "Hello! How can we help?").waitFor();
    expect(await bubble(page, "Hello! How can we help?").count()).toBe(1);
    const stored = await agent.messages(conversationId);
    expect(stored.map((m) => m.content)).toContain("Hello from the e2e test\nsecond line");
    expect(stored.filter((m) => m.content === "Hello! How can we help?")).toHaveLength(1);
    await shot(page, "chat-open");
    expect(errors).toEqual([]);
  });

  it("shows the agent typing, then the agent's reply live, and tells the host page", async () => {
    await page.evaluate(() => {
      const w = window as unknown as {
        $parley: { on(name: string, fn: (m: unknown) => void): void };
        __heard: unknown[];
      };
      w.__heard = [];
      w.$parley.on("message", (m: unknown) => w.__heard.push(m));
    });
    await agent.typing(conversationId, true);
    await chat(page).locator(".pw-typing", { hasText: "Alan Agent is typing" }).waitFor();
    await agent.reply(conversationId, "Hi! Alan here. Visit https://example.com/help for now.");
    const reply = bubble(page, "Alan here");
    await reply.waitFor();
    await reply.locator(".pw-sender", { hasText: "Alan Agent" }).waitFor();
    expect(await reply.locator("a").getAttribute("href")).toBe("https://example.com/help");
    expect(await reply.locator("a").getAttribute("rel")).toContain("noopener");
    await chat(page).locator(".pw-typing i").waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __heard: unknown[] }).__heard))
      .toContainEqual(
        expect.objectContaining({ message_type: 1, sender: { name: "Alan Agent", type: "user" } }),
      );
    await shot(page, "agent-reply");
    expect(errors).toEqual([]);
  });

  it("shows agents the visitor typing, live", async () => {
    const socket = new WebSocket(
      `${base.replace(/^http/, "ws")}/api/v1/accounts/1/conversations/${conversationId}/live?api_access_token=${ADMIN_TOKEN}`,
    );
    const typed = new Promise<{ data: { typer: { type: string } } }>((resolve, reject) => {
      socket.onmessage = (e) => {
        const frame = JSON.parse(String(e.data));
        if (frame.event === "typing.on" && frame.data.typer?.type === "contact") {
          resolve(frame);
        }
      };
      socket.onerror = () => reject(new Error("agent socket failed"));
    });
    await new Promise((resolve) => {
      socket.onopen = resolve;
    });
    const input = chat(page).locator("textarea");
    await input.pressSequentially("I am typ", { delay: 20 });
    expect((await typed).data.typer.type).toBe("contact");
    socket.close();
    await input.fill("");
  });

  it("closes with Escape back to the launcher, which then counts unread replies", async () => {
    await chat(page).locator("textarea").press("Escape");
    await chat(page).locator("textarea").waitFor({ state: "hidden" });
    expect(await launcher(page).getAttribute("aria-expanded")).toBe("false");
    expect(
      await page.evaluate(
        () => document.querySelector("parley-widget")?.shadowRoot?.activeElement?.tagName,
      ),
    ).toBe("BUTTON");
    await agent.reply(conversationId, "Are you still there?");
    await expect.poll(() => launcher(page).getAttribute("aria-label")).toBe("Open chat (1 unread)");
    await shot(page, "launcher-unread");
    await launcher(page).click();
    await bubble(page, "Are you still there?").waitFor();
    await expect.poll(() => launcher(page).getAttribute("aria-label")).toBe("Close chat");
  });

  it("tells the site's webhook of each open (webwidget_triggered), a new visitor's once a contact", async () => {
    const sourceId = await page.evaluate(
      (key) => JSON.parse(localStorage.getItem(key) ?? "{}").s?.session?.sourceId,
      `parley:${INBOX}`,
    );
    // The first open (before the visitor wrote, so before there was a contact) and the reopen.
    await expect.poll(() => receiver.bodies.length, { timeout: 20_000 }).toBe(2);
    const browserLanguage = await page.evaluate(() => navigator.language);
    for (const body of receiver.bodies) {
      expect(body).toMatchObject({
        event: "webwidget_triggered",
        source_id: sourceId,
        inbox: { name: "Acme website" },
        event_info: {
          referer: hostUrl,
          widget_language: "en",
          browser_language: browserLanguage,
          initiated_at: { timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/) },
        },
      });
    }
    const [first, second] = receiver.bodies.map((b) =>
      Date.parse((b.event_info as { initiated_at: { timestamp: string } }).initiated_at.timestamp),
    );
    expect(first).toBeLessThan(second as number);
  });

  it("keeps the conversation across a reload, loading the chat without waiting for a click", async () => {
    await page.reload();
    await page.locator("parley-widget iframe").waitFor({ state: "attached" });
    await launcher(page).click();
    await bubble(page, "Hello from the e2e test").waitFor();
    await bubble(page, "Are you still there?").waitFor();
    expect(errors).toEqual([]);
  });

  it("queues messages typed offline and sends each exactly once when back", async () => {
    const input = chat(page).locator("textarea");
    await context.setOffline(true);
    await chat(page).getByText("You're offline").waitFor();
    for (const text of ["typed offline, one", "typed offline, two"]) {
      await input.fill(text);
      await input.press("Enter");
    }
    await bubble(page, "typed offline, two").getByText("Waiting for the network").waitFor();
    await context.setOffline(false);
    await bubble(page, "typed offline, two").locator(".pw-meta", { hasText: "Sent" }).waitFor();
    const stored = (await agent.messages(conversationId)).map((m) => m.content);
    expect(stored.filter((c) => c === "typed offline, one")).toHaveLength(1);
    expect(stored.filter((c) => c === "typed offline, two")).toHaveLength(1);
    expect(await bubble(page, "typed offline, one").count()).toBe(1);
    expect(await bubble(page, "typed offline, two").count()).toBe(1);
  });

  it("does not double a message whose socket ack was lost after the server stored it", async () => {
    // From here on the live socket goes through a proxy (WebSocket routes outlive unrouteAll,
    // so this one stays and is steered by `socketMode`). Here it drops the first message's
    // answers (its frame and its ack) and cuts the connection, as a network failure right
    // after the store would.
    let cut = false;
    // The proxied socket is open at both ends before the visitor sends: on a loaded machine the
    // reloaded frame opened it late, the message went over HTTP, and there was no ack to lose.
    // A frame the page sent through the proxy (its typing) proves the page's end is open, a
    // frame the server sent through it (the agent's typing) the server's: the page's end opens
    // at once while the proxy's own connection to the server can still be on its way (each
    // wait alone was seen failing beside a CPU hog).
    let fromPage = 0;
    let fromServer = 0;
    await context.routeWebSocket(/\/live\?/, (ws) => {
      if (socketMode === "refuse") {
        ws.close();
        return;
      }
      const server = ws.connectToServer();
      if (socketMode === "pass") {
        return;
      }
      let echo: string | undefined;
      ws.onMessage((data) => {
        const frame = JSON.parse(String(data));
        fromPage += 1;
        if (frame.type === "message.create" && !cut) {
          echo = frame.echo_id;
        }
        server.send(data);
      });
      server.onMessage((data) => {
        fromServer += 1;
        if (echo && !cut && String(data).includes(echo)) {
          cut = true;
          ws.close();
          server.close();
          return;
        }
        ws.send(data);
      });
    });
    socketMode = "cut-ack";
    await page.reload();
    await launcher(page).click();
    await bubble(page, "Are you still there?").waitFor();
    const input = chat(page).locator("textarea");
    // Typing goes over the socket once it is open (at most one "on" per 3 s, then an "off");
    // the agent's typing reaches the visitor through the room once the server's end is up.
    await expect
      .poll(
        async () => {
          await input.fill(`ack lost in transit ${fromPage}`);
          await agent.typing(conversationId, true);
          return fromPage > 0 && fromServer > 0;
        },
        { interval: 1000 },
      )
      .toBe(true);
    await agent.typing(conversationId, false);
    await input.fill("ack lost in transit");
    await input.press("Enter");
    await expect.poll(() => cut).toBe(true);
    await bubble(page, "ack lost in transit").locator(".pw-meta", { hasText: "Sent" }).waitFor();
    await page.waitForTimeout(500);
    const stored = (await agent.messages(conversationId)).map((m) => m.content);
    expect(stored.filter((c) => c === "ack lost in transit")).toHaveLength(1);
    expect(await bubble(page, "ack lost in transit").count()).toBe(1);
    socketMode = "pass";
  });

  it("does not double a message whose HTTP answer was lost after the server stored it", async () => {
    // No socket (refused at connect): the widget sends over HTTP, whose first answer is cut.
    socketMode = "refuse";
    let cut = false;
    await context.route(
      "**/public/api/v1/inboxes/*/contacts/*/conversations/*/messages",
      async (route) => {
        if (route.request().method() === "POST" && !cut) {
          cut = true;
          await route.fetch();
          await route.abort("connectionreset");
        } else {
          await route.continue();
        }
      },
    );
    await page.reload();
    await launcher(page).click();
    await bubble(page, "Are you still there?").waitFor();
    const input = chat(page).locator("textarea");
    await input.fill("answer lost in transit");
    await input.press("Enter");
    await expect.poll(() => cut).toBe(true);
    await bubble(page, "answer lost in transit").locator(".pw-meta", { hasText: "Sent" }).waitFor();
    await page.waitForTimeout(500);
    const stored = (await agent.messages(conversationId)).map((m) => m.content);
    expect(stored.filter((c) => c === "answer lost in transit")).toHaveLength(1);
    expect(await bubble(page, "answer lost in transit").count()).toBe(1);
    await context.unrouteAll();
    socketMode = "pass";
    await page.reload();
    await launcher(page).click();
    await bubble(page, "answer lost in transit").waitFor();
  });

  it("renders HTML in messages as text, from the visitor and from agents", async () => {
    const visitor = `<img src=x onerror="window.__xss=1">`;
    const fromAgent = `<script>window.__xss=2</script><b>bold?</b>`;
    const input = chat(page).locator("textarea");
    await input.fill(visitor);
    await input.press("Enter");
    await agent.reply(conversationId, fromAgent);
    await bubble(page, "bold?").waitFor();
    for (const text of [visitor, fromAgent]) {
      const bubbleText = await bubble(page, text).locator(".pw-bubble").textContent();
      expect(bubbleText).toContain(text);
    }
    expect(
      await chat(page).locator(".pw-bubble img, .pw-bubble script, .pw-bubble b").count(),
    ).toBe(0);
    expect(
      await chatFrame(page).evaluate(() => (window as { __xss?: number }).__xss),
    ).toBeUndefined();
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  });

  it("sends an image and shows its preview", async () => {
    // A 1×1 PNG.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    await chat(page)
      .locator("input[type=file]")
      .setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: png });
    const preview = chat(page).locator(".pw-own .pw-bubble img[alt='dot.png']");
    await preview.waitFor();
    expect(await preview.getAttribute("src")).toMatch(new RegExp(`^${base}/files/`));
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  });

  it("offers a new conversation once agents resolve this one", async () => {
    await agent.resolve(conversationId);
    await chat(page).getByText("This conversation has ended.").waitFor();
    await chat(page).getByRole("button", { name: "Start a new conversation" }).click();
    const input = chat(page).locator("textarea");
    await input.fill("A new question");
    await input.press("Enter");
    await bubble(page, "A new question").locator(".pw-meta", { hasText: "Sent" }).waitFor();
    expect(await agent.latestConversation()).toBeGreaterThan(conversationId);
    expect(await bubble(page, "Hello from the e2e test").count()).toBe(0);
  });

  it("switches language and direction with setLocale", async () => {
    await page.evaluate(() =>
      (window as unknown as { $parley: { setLocale(c: string): void } }).$parley.setLocale("ar"),
    );
    await chat(page).locator(".pw[dir=rtl]").waitFor();
    expect(await chat(page).locator("textarea").getAttribute("placeholder")).toBe("اكتب رسالتك…");
    expect(await launcher(page).getAttribute("aria-label")).toBe("أغلق المحادثة");
    await shot(page, "chat-rtl");
  });

  it("logged no console error, uncaught exception or CSP violation", () => {
    // Network failures are the browser's own report of the offline and cut-connection steps.
    expect(errors.filter((e) => !/net::ERR_|WebSocket connection/.test(e))).toEqual([]);
  });
});
