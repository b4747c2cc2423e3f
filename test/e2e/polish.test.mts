// Issue 24, point 3, in Chromium: the list stays pinned to the newest message while content
// grows (an image that loads), the closed chat's preview (sender, two lines cut at a word, the
// × apart from the text, the dark theme), the launcher in the brand colour from the first paint
// (the embed snippet's data-color, black icon on a light brand), and a code block in a help
// article that is styled and keyboard-focusable (axe).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { crc32, deflateSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { violations } from "./axe.mts";
import {
  accountCall,
  agentApi,
  bubble,
  chat,
  chatFrame,
  hostCsp,
  hostHtml,
  launchChromium,
  launcher,
  openHost,
} from "./harness.mts";
import { createWidgetInbox } from "./help-world.mts";
import { explainFailure } from "./trail.mts";

// A failed test prints what its widget pages did (trail.mts).
beforeEach((ctx) => explainFailure(ctx));

const base = inject("parleyBase");
const hostUrl = inject("hostUrl");
const agent = agentApi(base);

/** A w×h PNG of one colour (the 1×1 dot of other tests would not grow the list). */
function png(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3, 0x5a)]);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(Array.from({ length: h }, () => row)))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function visitor(options: { dark?: boolean; url?: string } = {}) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: options.dark ? "dark" : "light",
  });
  const { page, errors } = await openHost(context, options.url ?? hostUrl);
  return { context, page, errors };
}

/** Pixels between the end of the message list and its visible bottom. */
const distanceToEnd = (page: Page) =>
  chatFrame(page).evaluate(() => {
    const el = document.querySelector(".pw-scroll") as HTMLElement;
    return el.scrollHeight - el.scrollTop - el.clientHeight;
  });

describe("the widget's rough edges, fixed (issue 24)", () => {
  it("keeps the newest message in view when an image loads after it is shown", async () => {
    const v = await visitor();
    await launcher(v.page).click();
    const input = chat(v.page).locator("textarea");
    await input.waitFor();
    for (const line of ["one", "two", "three", "four", "five", "six", "seven", "eight"]) {
      await input.fill(`Line ${line} of a conversation long enough to scroll.`);
      await input.press("Enter");
    }
    await bubble(v.page, "Line eight").waitFor();
    await expect.poll(() => chat(v.page).locator(".pw-pending").count()).toBe(0);
    // The image's size is known only once it loads: 300×182 after the bubble was laid out.
    await chat(v.page)
      .locator("input[type=file]")
      .setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: png(300, 182) });
    const img = chat(v.page).locator(".pw-own .pw-bubble img[alt='photo.png']");
    await img.waitFor();
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalHeight)).toBe(182);
    await expect
      .poll(() => img.evaluate((i: HTMLImageElement) => i.clientHeight))
      .toBeGreaterThan(100);
    // Pinned: the list followed the image's growth, nothing of it is hidden below.
    await expect.poll(() => distanceToEnd(v.page)).toBeLessThan(2);
    // Scrolled up by the visitor, the list stays where they put it when more arrives.
    await chatFrame(v.page).evaluate(() => {
      (document.querySelector(".pw-scroll") as HTMLElement).scrollTop = 0;
    });
    const id = await agent.latestConversation();
    await agent.reply(id, "A reply while the visitor reads back.");
    await bubble(v.page, "A reply while the visitor reads back.").waitFor();
    expect(await distanceToEnd(v.page)).toBeGreaterThan(100);
    expect(v.errors).toEqual([]);
    await v.context.close();
  });

  it("previews a reply with its sender, two lines cut at a word, the × apart, light and dark", async () => {
    for (const dark of [false, true]) {
      const v = await visitor({ dark });
      await launcher(v.page).click();
      const input = chat(v.page).locator("textarea");
      await input.waitFor();
      await input.fill(`Where is my parcel? (${dark ? "dark" : "light"})`);
      await input.press("Enter");
      await bubble(v.page, "Where is my parcel?").waitFor();
      await expect.poll(() => chat(v.page).locator(".pw-pending").count()).toBe(0);
      // The inbox's greeting (a server message) first, so the preview is the agent's reply's.
      await bubble(v.page, "Hello! How can we help?").waitFor();
      await launcher(v.page).click();
      const id = await agent.latestConversation();
      await agent.reply(
        id,
        "Good news: your parcel ships from Frida's warehouse in Malmö today, and the courier brings it to your door on Thursday between nine and noon.",
      );
      const card = v.page.locator("parley-widget [data-parley-preview] button:not([aria-label])");
      await card.waitFor();
      const look = await card.evaluate((button) => {
        const [face, text] = Array.from(button.children) as HTMLElement[];
        const [who, body] = Array.from((text as HTMLElement).children) as HTMLElement[];
        const line = Number.parseFloat(getComputedStyle(body as HTMLElement).lineHeight);
        return {
          face: face?.textContent,
          who: who?.textContent,
          body: body?.textContent ?? "",
          lines: Math.round((body as HTMLElement).clientHeight / line),
          clamped: (body as HTMLElement).scrollHeight > (body as HTMLElement).clientHeight,
          background: getComputedStyle(button).backgroundColor,
        };
      });
      expect(look.face).toBe("AA");
      expect(look.who).toBe("Alan Agent");
      expect(look.lines).toBe(2);
      expect(look.clamped).toBe(true);
      // Dark with the system's theme, as the chat is.
      expect(look.background).toBe(dark ? "rgb(38, 43, 51)" : "rgb(255, 255, 255)");
      // The × is outside the card: their boxes do not meet.
      const close = v.page.getByRole("button", { name: "Dismiss" });
      const [a, b] = [await close.boundingBox(), await card.boundingBox()];
      expect(a && b && a.y + a.height <= b.y).toBe(true);
      await card.click();
      await chat(v.page).locator("textarea").waitFor();
      expect(await card.count()).toBe(0);
      await v.context.close();
    }
  });

  it("paints the launcher in the snippet's colour before the chat was ever opened", async () => {
    // The customer's page with the embed snippet as the inbox API gives it (data-color), on
    // loopback like the other host page (Chromium lets a loopback page load loopback scripts).
    const html = hostHtml(base).replace(" data-inbox=", ' data-color="#f5c518" data-inbox=');
    const server = createServer((_req, res) => {
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": hostCsp(base),
      });
      res.end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const v = await visitor({ url: `http://localhost:${port}/` });
    const page = v.page;
    const paint = await launcher(page).evaluate((b) => ({
      background: getComputedStyle(b).backgroundColor,
      icon: getComputedStyle(b).color,
    }));
    // The brand itself (no darker shade), with a black icon that reads on it.
    expect(paint).toEqual({ background: "rgb(245, 197, 24)", icon: "rgb(0, 0, 0)" });
    // No frame was loaded for it.
    expect(page.frames().some((f) => f.url().includes("/frame"))).toBe(false);
    await v.context.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it("styles a help article's code block as one focusable box (axe: no violation)", async () => {
    const call = accountCall(base);
    const inbox = await createWidgetInbox(base, "Docs desk", [["Ann Lee", "online"]]);
    const slug = `code-${Date.now().toString(36)}`;
    await call("POST", "/portals", {
      name: "Dev Help",
      slug,
      inbox_id: inbox.id,
      config: { allowed_locales: ["en"], default_locale: "en" },
    });
    await call("POST", `/portals/${slug}/articles`, {
      title: "Install the CLI",
      description: "One command.",
      content:
        "Run this:\n\n```\nnpm install --global @acme/cli-with-a-rather-long-package-name --registry=https://registry.example.com/\nacme login\n```\n\nThen sign in.",
      status: 1,
    });
    const v = await visitor({ url: `${base}/demo?inbox=${inbox.identifier}` });
    await launcher(v.page).click();
    await chat(v.page)
      .getByRole("button", { name: /Install the CLI/ })
      .click();
    const pre = chat(v.page).locator(".pw-article pre");
    await pre.waitFor();
    const look = await pre.evaluate((el) => {
      const code = el.querySelector("code") ?? el;
      const first = document.createRange();
      first.setStart(code.firstChild as Node, 0);
      first.setEnd(code.firstChild as Node, 1);
      return {
        tabindex: el.getAttribute("tabindex"),
        codeBackground: getComputedStyle(code).backgroundColor,
        codePadding: getComputedStyle(code).paddingLeft,
        scrolls: el.scrollWidth > el.clientWidth,
        indent: first.getBoundingClientRect().left - el.getBoundingClientRect().left,
        padding: Number.parseFloat(getComputedStyle(el).paddingLeft),
      };
    });
    expect(look.tabindex).toBe("0");
    expect(look.codeBackground).toBe("rgba(0, 0, 0, 0)");
    expect(look.codePadding).toBe("0px");
    // Long lines scroll inside the box instead of being cut off.
    expect(look.scrolls).toBe(true);
    // The first line starts where the others do: at the box's padding (plus its border).
    expect(look.indent).toBeLessThanOrEqual(look.padding + 2);
    await pre.focus();
    expect(await chatFrame(v.page).evaluate(() => document.activeElement?.tagName)).toBe("PRE");
    expect(await violations(chatFrame(v.page))).toEqual([]);
    expect(v.errors).toEqual([]);
    await v.context.close();
  });
});
