// Issue 24: the service's own pages look finished and pass axe with 0 violations, desktop and
// phone, light and dark; baselines in docs/surfaces/ (`UPDATE_SCREENSHOTS=1` rewrites them).
// Pages keep their real CSP: a console error (a refused style or script) fails the test.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { violations } from "./axe.mts";
import { watchErrors } from "./harness.mts";
import { expectLook, LOOKS, lookContext, SURFACES, useBrowser } from "./look-support.mts";

const base = inject("parleyBase");

useBrowser();

/** Opens a page in each look: no console error, no axe violation, the look matches. */
async function checkLooks(name: string, open: (page: Page) => Promise<void>) {
  for (const [look, options] of LOOKS) {
    const context = await lookContext(options);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await open(page);
    await expectLook(page, `${name}-${look}`, undefined, SURFACES);
    expect(await violations(page), `${name}-${look}`).toEqual([]);
    expect(errors, `${name}-${look}`).toEqual([]);
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
