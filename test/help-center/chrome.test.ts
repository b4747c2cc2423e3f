import { describe, expect, it } from "vitest";
import { onColor } from "../../worker/modules/help-center/render/layout";
import { stringsFor } from "../../worker/modules/help-center/render/strings";
import { createWorld } from "../support/factories";
import { makeArticle, makeCategory, makePortal, page } from "./support";

async function portalWith(locales: string[], color = "#aa3300") {
  const { account, admin } = await createWorld();
  const portal = await makePortal(account.id, admin.token, {
    color,
    header_text: "How can we help?",
    config: { allowed_locales: locales, default_locale: locales[0] },
  });
  const category = await makeCategory(account.id, admin.token, portal.slug, { name: "Billing" });
  await makeArticle(account.id, admin.token, portal.slug, {
    title: "Download invoices",
    content: "Open **Settings** and pick the invoices tab.",
    category_id: category.id,
  });
  return portal;
}

describe("the help center's chrome (issue 24, point 5)", () => {
  it("has one h1, the header line as a hero, category tiles with counts, a brand button", async () => {
    const portal = await portalWith(["en"]);
    const home = await page(`/hc/${portal.slug}/en`);
    expect(home.status).toBe(200);
    expect(home.text.match(/<h1\b/g)).toHaveLength(1);
    expect(home.text).toContain('<h1 class="hd">How can we help?</h1>');
    expect(home.text).toContain('<p class="n">1 article</p>');
    // The search button is the portal's colour with readable text on it.
    expect(home.text).toContain("--c:#aa3300;--on:#fff");
    expect(home.text).toMatch(/button\{[^}]*background:var\(--c\);color:var\(--on\)/);
  });

  it("keeps the query in the box and counts the results", async () => {
    const portal = await portalWith(["en"]);
    const found = await page(`/hc/${portal.slug}/en/articles?query=invoices`);
    expect(found.text).toContain('value="invoices"');
    expect(found.text).toContain("<h1>1 result for “invoices”</h1>");
    const none = await page(`/hc/${portal.slug}/en/articles?query=zebra%22%3E`);
    expect(none.text).toContain('value="zebra&quot;&gt;"');
    expect(none.text).toContain("0 results for “zebra&quot;&gt;”");
  });

  it("speaks the page's language, right to left for Arabic, and 404s lead home", async () => {
    const portal = await portalWith(["en", "fr", "ar"]);
    const fr = await page(`/hc/${portal.slug}/fr`);
    expect(fr.text).toContain('placeholder="Rechercher des articles"');
    expect(fr.text).toContain("<h2>Articles populaires</h2>");
    expect(fr.text).not.toContain("Search articles");
    const ar = await page(`/hc/${portal.slug}/ar`);
    expect(ar.text).toContain('<html lang="ar" dir="rtl">');
    expect(ar.text).toContain(stringsFor("ar").popular);
    const missing = await page(`/hc/${portal.slug}/en/articles/no-such-article`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain(
      `<a href="/hc/${portal.slug}/en">Go to the help center home</a>`,
    );
    expect(missing.text).toContain('role="search"');
  });

  it("picks dark text on light brand colours and white on dark ones", () => {
    expect(onColor("#f5c518")).toBe("#111827");
    expect(onColor("#ffffff")).toBe("#111827");
    expect(onColor("#1f2937")).toBe("#fff");
    expect(onColor("#aa3300")).toBe("#fff");
    expect(onColor("#fff")).toBe("#111827");
    expect(stringsFor("pt_BR")).toBe(stringsFor("en"));
    expect(stringsFor("fr_CA").search).toBe("Rechercher des articles");
  });
});
