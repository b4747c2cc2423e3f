// Issue 24: the service's own pages look finished and pass axe with 0 violations, desktop and
// phone, light and dark; baselines in docs/surfaces/ (`UPDATE_SCREENSHOTS=1` rewrites them).
// Pages keep their real CSP: a console error (a refused style or script) fails the test.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { PAGE_HEADERS, passwordPage, passwordSetPage } from "../../worker/modules/auth/pages";
import { violations } from "./axe.mts";
import { launcher, watchErrors } from "./harness.mts";
import { createWidgetInbox, linkPortal } from "./help-world.mts";
import { expectLook, LOOKS, lookContext, SURFACES, useBrowser } from "./look-support.mts";

const base = inject("parleyBase");

useBrowser();

/**
 * Opens a page in each look: no console error, no axe violation, the look matches. `allow`:
 * console lines expected (a page served with an error status logs that status).
 */
async function checkLooks(name: string, open: (page: Page) => Promise<void>, allow?: RegExp) {
  for (const [look, options] of LOOKS) {
    const context = await lookContext(options);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await open(page);
    await expectLook(page, `${name}-${look}`, undefined, SURFACES);
    expect(await violations(page), `${name}-${look}`).toEqual([]);
    expect(
      errors.filter((e) => !allow?.test(e)),
      `${name}-${look}`,
    ).toEqual([]);
    await context.close();
  }
}

describe("the front door", () => {
  it("is a page for browsers, with the app, demo, docs and OpenAPI links and a favicon", async () => {
    await checkLooks("front-door", async (page) => {
      const res = await page.goto(`${base}/`);
      expect(res?.headers()["content-type"]).toContain("text/html");
      for (const name of ["Agents' app", "Widget demo", "API reference", "OpenAPI 3.1"]) {
        await page.getByRole("link", { name: new RegExp(name) }).waitFor();
      }
      const icon = await page.request.get(`${base}/parley-icon.svg`);
      expect(icon.headers()["content-type"]).toContain("image/svg+xml");
    });
  });
});

describe("the API reference (/docs)", () => {
  const OP = "op-post--api-v1-accounts-account-id-conversations-conversation-id-messages";

  it("shows an operation's body fields, an example request and response; no stray text", async () => {
    const context = await lookContext({});
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${base}/docs#${OP}`);
    const op = page.locator(`#${OP}`);
    await op.locator("pre").first().waitFor();
    expect(await op.getAttribute("open")).not.toBeNull();
    // The request body's fields, with type, required and limits.
    const content = op.locator("table.fields tr", { hasText: "content_attributes" });
    expect(await content.textContent()).toContain("object (any keys)");
    expect(await op.locator("table.fields tr", { hasText: "echo_id" }).textContent()).toContain(
      "at most 255 characters",
    );
    // An example curl with the token header and a JSON body, and an example response.
    const curl = (await op.locator("pre").first().textContent()) ?? "";
    expect(curl).toContain(`curl -X POST '${base}/api/v1/accounts/`);
    expect(curl).toContain("-H 'api_access_token: YOUR_TOKEN'");
    expect(curl).toMatch(/-d '\{"content":/);
    expect(await op.locator("pre").nth(1).textContent()).toContain('"seq": 1');
    // Schema names link to their schema, which opens.
    await op.locator('a[href="#schema-Message"]').first().click();
    await page.locator("#schema-Message[open] table.fields").waitFor();

    // Every operation and schema opened: no "null", "undefined" or "[object Object]" anywhere
    // but in the document's own descriptions (which may say "null to detach") and JSON examples
    // (where null is a value).
    await page.evaluate(() => {
      for (const d of Array.from(document.querySelectorAll("details"))) {
        d.open = true;
      }
    });
    await expect
      .poll(
        () => page.evaluate(() => document.querySelectorAll("details:not([data-built])").length),
        { timeout: 60_000 },
      )
      .toBe(0);
    const stray = await page.evaluate(() => {
      const found: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent ?? "";
        if (n.parentElement?.closest(".desc, pre")) {
          continue;
        }
        if (/\bnull\b|\bundefined\b|\[object Object\]|\bNaN\b/.test(text)) {
          found.push(`${n.parentElement?.closest("details")?.id ?? "page"}: ${text.slice(0, 80)}`);
        }
      }
      return found;
    });
    expect(stray).toEqual([]);
    const operations = await page.locator("details[id^=op-]").count();
    expect(operations).toBeGreaterThan(100);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("looks finished with an operation open, desktop and phone, light and dark", async () => {
    await checkLooks("docs", async (page) => {
      await page.goto(`${base}/docs#${OP}`);
      await page.locator(`#${OP} pre`).first().waitFor();
    });
  });
});

describe("the mailed-link pages", () => {
  const FACTS = { email: "jane@acme.inc", account: "Acme Support" };

  /** Serves `html` at `path` of the real origin (its script and icon load from the server). */
  const serve = (html: string, path: string) => async (page: Page) => {
    await page.route(`${base}${path}`, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", headers: PAGE_HEADERS, body: html }),
    );
    await page.goto(`${base}${path}`);
  };

  it("the set-password page: branded, the email shown, a working show-password button", async () => {
    const html = String(await passwordPage("tok", FACTS, "The two passwords differ."));
    const path = "/app/auth/password/edit?reset_password_token=tok";
    await checkLooks("auth-password", async (page) => {
      await serve(html, path)(page);
      await page.getByRole("button", { name: "Show" }).first().waitFor();
    });
    const context = await lookContext({ mobile: true });
    const page = await context.newPage();
    await serve(html, path)(page);
    const field = page.getByLabel("New password");
    await field.fill("correct horse");
    await page.getByRole("button", { name: "Show" }).first().click();
    expect(await field.getAttribute("type")).toBe("text");
    expect(await page.getByLabel("Repeat it").getAttribute("type")).toBe("text");
    await page.getByRole("button", { name: "Hide" }).first().click();
    expect(await field.getAttribute("type")).toBe("password");
    // Phone margins: the card never touches the screen's edges.
    const box = await page.locator(".card").boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(12);
    await context.close();
  });

  it("the expired-link page offers a new link; the done page leads into the app", async () => {
    await checkLooks(
      "auth-expired",
      async (page) => {
        const res = await page.goto(`${base}/app/auth/password/edit?reset_password_token=gone`);
        expect(res?.status()).toBe(404);
        await page.getByRole("button", { name: "Send me a new link" }).waitFor();
      },
      /status of 404/,
    );
    const done = String(await passwordSetPage(FACTS.email, FACTS.account));
    await checkLooks("auth-done", async (page) => {
      await serve(done, "/app/auth/password/edit")(page);
      await page.getByRole("link", { name: "Open the agents' app" }).waitFor();
    });
  });
});

/** Eight looks with axe each, on a loaded machine: a margin that only stops a hang. */
const LOOKS_TIMEOUT = 240_000;

describe("the public help center", () => {
  /** The article's date pinned, so the baseline does not age. */
  const pinDates = (page: Page) =>
    page.evaluate(() => {
      for (const t of Array.from(document.querySelectorAll("time"))) {
        t.textContent = "2026-11-24";
      }
    });
  /** The linked inbox's chat launcher, painted (the widget's tag loads async). */
  const withLauncher = (page: Page) => launcher(page).waitFor({ timeout: 20_000 });

  let hc: string;
  beforeAll(async () => {
    const inbox = await createWidgetInbox(base, "Help desk looks");
    hc = `${base}/hc/${await linkPortal(base, inbox.id)}/en`;
  }, LOOKS_TIMEOUT);

  it(
    "home and article look finished, with the chat launcher, and pass axe",
    async () => {
      await checkLooks("help-home", async (page) => {
        await page.goto(hc);
        await page.locator("h1.hd").waitFor();
        await withLauncher(page);
      });
      await checkLooks("help-article", async (page) => {
        await page.goto(`${hc}`);
        await page.getByRole("link", { name: "Track your order" }).click();
        await page.locator("article h1").waitFor();
        await withLauncher(page);
        await pinDates(page);
      });
    },
    LOOKS_TIMEOUT,
  );

  it(
    "search and 404 look finished, with the chat launcher, and pass axe",
    async () => {
      await checkLooks("help-search", async (page) => {
        await page.goto(hc);
        await page.getByRole("searchbox").fill("parcel");
        await page.getByRole("searchbox").press("Enter");
        await page.locator("main h1").waitFor();
        await withLauncher(page);
        // The query stays in the box, and the results are counted.
        expect(await page.getByRole("searchbox").inputValue()).toBe("parcel");
        expect(await page.locator("main h1").textContent()).toMatch(/^\d+ results? for “parcel”$/);
      });
      await checkLooks(
        "help-404",
        async (page) => {
          const res = await page.goto(`${hc}/articles/no-such-page`);
          expect(res?.status()).toBe(404);
          await page.getByRole("link", { name: "Go to the help center home" }).waitFor();
          await withLauncher(page);
        },
        /status of 404/,
      );
    },
    LOOKS_TIMEOUT,
  );

  it(
    '"Was this helpful?", asked and answered, looks finished and passes axe',
    async () => {
      // "Was this helpful?" asked, then answered (the comment box), scrolled into view.
      await checkLooks("help-feedback", async (page) => {
        await page.goto(`${hc}`);
        await page.getByRole("link", { name: "Return an item" }).click();
        await withLauncher(page);
        await pinDates(page);
        await page.locator("#feedback").scrollIntoViewIfNeeded();
      });
      await checkLooks("help-feedback-thanks", async (page) => {
        await page.goto(`${hc}`);
        await page.getByRole("link", { name: "Return an item" }).click();
        await withLauncher(page);
        await page.getByRole("button", { name: "No" }).click();
        await page.getByText("Thanks for your feedback!").waitFor();
        await pinDates(page);
        await page.locator("#feedback").scrollIntoViewIfNeeded();
      });
    },
    LOOKS_TIMEOUT,
  );
});
