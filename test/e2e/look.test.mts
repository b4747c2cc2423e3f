// Issue 15, point 7: what the widget looks like, compared against the baselines committed in
// docs/widget/ (desktop and phone; light, dark, RTL; welcome, conversation, long title,
// closed-state preview). `UPDATE_SCREENSHOTS=1` rewrites the baselines after a deliberate change.
// Times and dates in the chat are pinned to one text first, so a baseline does not age.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  ADMIN_TOKEN,
  agentApi,
  bubble,
  chat,
  chatFrame,
  launchChromium,
  launcher,
  openHost,
} from "./harness.mts";
import { createWidgetInbox, linkPortal } from "./help-world.mts";

const base = inject("parleyBase");
const hostUrl = inject("hostUrl");
const agent = agentApi(base);
const BASELINES = path.join(import.meta.dirname, "../../docs/widget");
const UPDATE = process.env.UPDATE_SCREENSHOTS === "1";
/** Share of pixels allowed to differ (anti-aliasing, font hinting), and by how much. */
const TOLERANCE = 0.01;
const CHANNEL_DELTA = 48;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** The chat's corner on a desktop page (the panel and the launcher). */
const CORNER = { x: DESKTOP.width - 430, y: DESKTOP.height - 800, width: 430, height: 800 };

let browser: Browser;
let differ: Page;

beforeAll(async () => {
  browser = await launchChromium();
  differ = await (await browser.newContext()).newPage();
});

afterAll(async () => {
  await browser?.close();
});

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

/** Compares (or writes) docs/widget/<name>.png. */
async function expectLook(page: Page, name: string, clip?: typeof CORNER) {
  await pinClock(page);
  await page.waitForTimeout(150);
  const png = await page.screenshot({ clip, animations: "disabled", caret: "hide" });
  const file = path.join(BASELINES, `${name}.png`);
  if (UPDATE || !existsSync(file)) {
    mkdirSync(BASELINES, { recursive: true });
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

async function newVisitor(options: { mobile?: boolean; dark?: boolean; url?: string }) {
  const context = await browser.newContext({
    viewport: options.mobile ? PHONE : DESKTOP,
    colorScheme: options.dark ? "dark" : "light",
    reducedMotion: "reduce",
  });
  const { page, errors } = await openHost(context, options.url ?? hostUrl);
  return { context, page, errors };
}

async function openChat(page: Page) {
  await launcher(page).click();
  await chat(page).locator("textarea").waitFor();
}

/** Two visitor lines, two agent replies in markdown, then the agent resolves it. */
async function converse(page: Page, resolve: boolean) {
  const input = chat(page).locator("textarea");
  await input.fill("Hi! My order #1042 hasn't arrived yet.");
  await input.press("Enter");
  await input.fill("It was due on Monday.");
  await input.press("Enter");
  await bubble(page, "It was due on Monday.").waitFor();
  // Both stored (no pending bubble left), so the conversation exists for the agent.
  await expect.poll(() => chat(page).locator(".pw-pending").count()).toBe(0);
  const id = await agent.latestConversation();
  await agent.reply(id, "Sorry about that! I checked: it left our warehouse **today**.");
  await agent.reply(
    id,
    "You can follow it here: [tracking page](https://example.com/track/1042)\n- arrives *Thursday*\n- code `ACME-1042`",
  );
  await bubble(page, "ACME-1042").waitFor();
  if (resolve) {
    await agent.resolve(id);
    await chat(page).getByText("Conversation was marked resolved by Alan Agent").waitFor();
  }
  return id;
}

describe("the widget's look (docs/widget/*.png)", () => {
  let context: BrowserContext | undefined;

  afterAll(async () => {
    await context?.close();
  });

  it("welcome, desktop, light", async () => {
    const v = await newVisitor({});
    context = v.context;
    await openChat(v.page);
    await chat(v.page).locator(".pw-card").waitFor();
    await expectLook(v.page, "welcome-desktop-light", CORNER);
    expect(v.errors).toEqual([]);
    await v.context.close();
  });

  it("a conversation with markdown and a resolve note: desktop light and dark, phone", async () => {
    for (const [name, options] of [
      ["conversation-desktop-light", {}],
      ["conversation-desktop-dark", { dark: true }],
      ["conversation-phone-light", { mobile: true }],
      ["conversation-phone-dark", { mobile: true, dark: true }],
    ] as const) {
      const v = await newVisitor(options);
      await openChat(v.page);
      await converse(v.page, true);
      // The markdown arrived as elements, the note as centred text.
      expect(await chat(v.page).locator(".pw-bubble b").first().textContent()).toBe("today");
      expect(await chat(v.page).locator(".pw-bubble a", { hasText: "tracking page" }).count()).toBe(
        1,
      );
      await expectLook(v.page, name, options.mobile ? undefined : CORNER);
      expect(v.errors).toEqual([]);
      await v.context.close();
    }
  });

  it("right to left (Arabic), desktop", async () => {
    const v = await newVisitor({});
    await openChat(v.page);
    await v.page.evaluate(() =>
      (window as unknown as { $parley: { setLocale(c: string): void } }).$parley.setLocale("ar"),
    );
    await chat(v.page).locator(".pw[dir=rtl]").waitFor();
    await converse(v.page, false);
    await expectLook(v.page, "conversation-desktop-rtl", CORNER);
    await v.context.close();
  });

  it("a long unbreakable title wraps on a phone and the close button stays on screen", async () => {
    const res = await fetch(`${base}/api/v1/accounts/1/inboxes`, {
      method: "POST",
      headers: { api_access_token: ADMIN_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({
        name: "Kundendienst",
        channel: {
          type: "web_widget",
          website_url: "https://shop.example",
          welcome_title: "Kundendienstmitarbeiterinnenteam",
          widget_color: "#ffd400",
        },
        greeting_enabled: true,
        greeting_message: "Wie können wir helfen?",
      }),
    });
    expect(res.status).toBe(200);
    const inbox = (await res.json()) as { inbox_identifier: string };
    const v = await newVisitor({
      mobile: true,
      url: `${base}/demo?inbox=${inbox.inbox_identifier}`,
    });
    await openChat(v.page);
    const close = chat(v.page).getByRole("button", { name: "Close chat" });
    const box = await close.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    // A bright yellow brand: white text on a deeper shade of it, never black text.
    const colors = await chatFrame(v.page).evaluate(() => {
      const head = document.querySelector(".pw-head") as HTMLElement;
      const s = getComputedStyle(head);
      return { text: s.color, background: s.backgroundColor };
    });
    expect(colors.text).toBe("rgb(255, 255, 255)");
    expect(colors.background).not.toBe("rgb(255, 212, 0)");
    await expectLook(v.page, "long-title-phone");
    // A modal on the phone: the page behind does not scroll, Tab never leaves the chat.
    const overflow = () => v.page.evaluate(() => document.documentElement.style.overflow);
    expect(await overflow()).toBe("hidden");
    await chat(v.page).locator("textarea").focus();
    for (let i = 0; i < 8; i++) {
      await v.page.keyboard.press(i % 2 ? "Tab" : "Shift+Tab");
      await v.page.keyboard.press("Tab");
      expect(
        await v.page.evaluate(() => document.activeElement?.tagName),
        `after ${i + 1} rounds`,
      ).toBe("PARLEY-WIDGET");
    }
    await close.click();
    await launcher(v.page).waitFor();
    expect(await overflow()).toBe("");
    await v.context.close();
  });

  it("a reply while the chat is closed shows a preview that opens it", async () => {
    const v = await newVisitor({});
    await openChat(v.page);
    await converse(v.page, false);
    await launcher(v.page).click();
    const id = await agent.latestConversation();
    await agent.reply(id, "Good news: the courier is on the way to you now.");
    const preview = v.page.locator("parley-widget button", {
      hasText: "Good news: the courier is on the way to you now.",
    });
    await preview.waitFor();
    await expectLook(v.page, "preview-desktop", CORNER);
    await preview.click();
    await chat(v.page).locator("textarea").waitFor();
    expect(await preview.isVisible()).toBe(false);
    await v.context.close();
  });

  it("the header with three agents, two online: desktop light and dark", async () => {
    const inbox = await createWidgetInbox(base, "Team desk", [
      ["Ann Lee", "online"],
      ["Bo Park", "online"],
      ["Cy Dee", "busy"],
    ]);
    for (const [name, dark] of [
      ["header-agents-desktop-light", false],
      ["header-agents-desktop-dark", true],
    ] as const) {
      const v = await newVisitor({ dark, url: `${base}/demo?inbox=${inbox.identifier}` });
      await openChat(v.page);
      expect(await chat(v.page).locator(".pw-agents .online").count()).toBe(2);
      await expectLook(v.page, name, CORNER);
      expect(v.errors).toEqual([]);
      await v.context.close();
    }
  });

  it("the help-center home with the popular articles: desktop and phone", async () => {
    const inbox = await createWidgetInbox(base, "Help desk", [["Ann Lee", "online"]]);
    await linkPortal(base, inbox.id);
    for (const [name, mobile] of [
      ["help-home-desktop-light", false],
      ["help-home-phone-light", true],
    ] as const) {
      const v = await newVisitor({ mobile, url: `${base}/demo?inbox=${inbox.identifier}` });
      await launcher(v.page).click();
      await expect.poll(() => chat(v.page).locator(".pw-articles li").count()).toBe(3);
      await expectLook(v.page, name, mobile ? undefined : CORNER);
      expect(v.errors).toEqual([]);
      await v.context.close();
    }
  });
});
