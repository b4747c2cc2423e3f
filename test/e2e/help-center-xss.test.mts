// The help center's sanitiser in a real browser: every payload of help-center-xss-payloads.mts
// in article markdown (as a line, a link URL, an image URL, link text, a heading), and in the
// article's title, description and tags, rendered by the real Worker and loaded in Chromium
// with the page's Content-Security-Policy removed, so that only the markdown renderer and the
// sanitiser stand between a payload and an execution. Then nothing may have run and the DOM
// may hold no handler, script, frame or script URL.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { accountCall, launchChromium } from "./harness.mts";
import { XSS_PAYLOADS } from "./help-center-xss-payloads.mts";

const base = inject("parleyBase");
let browser: Browser;
const slug = `xss${Date.now().toString(36)}`;

const call = accountCall(base);

/** Each payload in every markdown context an author controls. */
const contexts = (p: string) => [
  p,
  `[link](${p})`,
  `![img](${p})`,
  `[${p}](https://ok.example)`,
  `## ${p}`,
  `text ${p} text`,
];

const BATCH = 10;
const articles: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  await call("POST", "/portals", {
    name: `XSS <img src=x onerror=__pwned()>`,
    slug,
    header_text: "<script>__pwned()</script>",
  });
  for (let i = 0; i < XSS_PAYLOADS.length; i += BATCH) {
    const batch = XSS_PAYLOADS.slice(i, i + BATCH);
    const article = await call("POST", `/portals/${slug}/articles`, {
      title: `Batch ${i} ${batch[0]}`,
      description: batch[1] ?? "",
      status: 1,
      meta: { tags: batch.slice(0, 3).map((t) => t.slice(0, 60)), description: batch[2] ?? "" },
      content: batch.flatMap(contexts).join("\n\n"),
    });
    articles.push(article.slug);
  }
});

afterAll(async () => {
  await browser?.close();
});

async function visit(path: string) {
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  let executions = 0;
  let dialogs = 0;
  page.on("dialog", async (d) => {
    dialogs++;
    await d.dismiss();
  });
  await page.exposeFunction("__report", () => {
    executions++;
  });
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    const hit = () => (w.__report as () => void)();
    w.__pwned = hit;
    for (const name of ["alert", "confirm", "prompt", "print"]) {
      w[name] = hit;
    }
  });
  // Without the CSP: the sanitiser alone is under test.
  await page.route("**/*", async (route) => {
    if (route.request().resourceType() !== "document") {
      // Images the payloads point at (x, //evil…): nothing to serve, nothing to wait for.
      await route.abort().catch(() => undefined);
      return;
    }
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers["content-security-policy"];
    await route.fulfill({ response, headers });
  });
  const res = await page.goto(`${base}${path}`, { waitUntil: "load" });
  // Give timers, autofocus and animations their chance; hover and focus everything.
  await page.evaluate(async () => {
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      el.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
      (el as HTMLElement).focus?.();
    }
    await new Promise((r) => setTimeout(r, 300));
  });
  const dom = await page.evaluate(() => {
    const all = Array.from(document.querySelectorAll("*"));
    return {
      handlers: all.flatMap((el) =>
        el
          .getAttributeNames()
          .filter((n) => n.startsWith("on"))
          .map((n) => `${el.tagName} ${n}`),
      ),
      // Scripts besides the JSON-LD and the page's own "Was this helpful?" file (by its URL).
      scripts: Array.from(document.scripts).filter(
        (s) =>
          s.type !== "application/ld+json" &&
          !(s.src === `${location.origin}/hc/helpful.js` && s.attributes.length === 2 && s.defer),
      ).length,
      frames: document.querySelectorAll(
        "iframe, frame, object, embed, applet, base, meta[http-equiv], svg, math",
      ).length,
      badUrls: all.flatMap((el) =>
        ["href", "src", "action", "formaction", "xlink:href", "data", "background"]
          .map((n) => el.getAttribute(n))
          .filter(
            (v): v is string =>
              v !== null &&
              /^(javascript|data|vbscript):/i.test(
                Array.from(v)
                  .filter((ch) => ch.charCodeAt(0) > 32)
                  .join(""),
              ),
          ),
      ),
      marks: document.body.textContent.length,
    };
  });
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await context.close();
  return { status: res?.status(), executions, dialogs, dom };
}

describe("help-center sanitiser against XSS payloads in Chromium", () => {
  it(`has at least 100 payloads`, () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(100);
  });

  it("runs none of them on the article pages: 0 executions, 0 dialogs, nothing dangerous in the DOM", async () => {
    let pages = 0;
    for (const article of articles) {
      const result = await visit(`/hc/${slug}/articles/${encodeURIComponent(article)}`);
      expect(result.status, article).toBe(200);
      expect(result.executions, article).toBe(0);
      expect(result.dialogs, article).toBe(0);
      expect(result.dom.handlers, article).toEqual([]);
      expect(result.dom.scripts, article).toBe(0);
      expect(result.dom.frames, article).toBe(0);
      expect(result.dom.badUrls, article).toEqual([]);
      expect(result.dom.marks, article).toBeGreaterThan(100);
      pages++;
    }
    expect(pages).toBe(Math.ceil(XSS_PAYLOADS.length / BATCH));
  });

  it("runs none of them on the home, category-less search and search pages", async () => {
    for (const path of [
      `/hc/${slug}`,
      `/hc/${slug}/en/articles?query=${encodeURIComponent(XSS_PAYLOADS.slice(0, 20).join(" "))}`,
      `/hc/${slug}/en/articles?query=script`,
    ]) {
      const result = await visit(path);
      expect(result.status, path).toBe(200);
      expect(result.executions + result.dialogs, path).toBe(0);
      expect(result.dom.handlers, path).toEqual([]);
      expect(result.dom.scripts, path).toBe(0);
    }
  });
});
