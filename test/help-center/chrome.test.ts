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
  // Every other locale has an article too: an empty locale is not offered (it redirects).
  for (const locale of locales.slice(1)) {
    await makeArticle(account.id, admin.token, portal.slug, { title: `Article ${locale}`, locale });
  }
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
    // Every page has a description (Lighthouse's SEO audit), search results their title.
    expect(found.text).toMatch(/<meta name="description" content="Search: invoices \| [^"]+">/);
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

  it("offers only locales with a published article; an empty one leads to the home locale", async () => {
    // en and fr have articles, de is allowed but empty (es only a draft).
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token, {
      config: { allowed_locales: ["en", "fr", "de", "es"], default_locale: "en" },
    });
    const enCategory = await makeCategory(account.id, admin.token, portal.slug, {
      name: "Billing",
    });
    await makeCategory(account.id, admin.token, portal.slug, { name: "Konto", locale: "de" });
    const en = await makeArticle(account.id, admin.token, portal.slug, {
      title: "Invoices",
      category_id: enCategory.id,
    });
    await makeArticle(account.id, admin.token, portal.slug, {
      title: "Factures",
      locale: "fr",
      associated_article_id: en.id,
    });
    await makeArticle(account.id, admin.token, portal.slug, {
      title: "Borrador",
      locale: "es",
      status: 0,
    });
    const hc = `/hc/${portal.slug}`;
    for (const path of [`${hc}/en`, `${hc}/fr`, `${hc}/articles/${en.slug}`]) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).toContain('hreflang="fr"');
      expect(res.text, path).not.toMatch(/hreflang="(de|es)"/);
      expect(res.text, path).not.toContain(`href="${hc}/de"`);
    }
    // The switcher lists en and fr only.
    const home = await page(`${hc}/en`);
    expect(home.text.match(/<nav class="loc".*?<\/nav>/)?.[0].match(/hreflang="/g)).toHaveLength(2);
    // Empty locales' pages redirect to the home locale; a search keeps its words.
    for (const [path, to] of [
      [`${hc}/de`, `${hc}/en`],
      [`${hc}/es`, `${hc}/en`],
      [`${hc}/de/categories/konto`, `${hc}/en`],
      [`${hc}/de/articles?query=rechnung%20pdf`, `${hc}/en/articles?query=rechnung%20pdf`],
    ]) {
      const res = await page(path as string);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location"), path).toBe(to);
    }
    // JSON clients still get their (empty) answer; unknown locales stay 404.
    const json = await page(`${hc}/de/articles.json`);
    expect(json.status).toBe(200);
    expect((JSON.parse(json.text) as { payload: unknown[] }).payload).toEqual([]);
    expect((await page(`${hc}/ja`)).status).toBe(404);
    // The sitemap has the homes of en and fr only, and no category of de.
    const map = await page(`${hc}/sitemap.xml`);
    expect(map.text).toContain(`${hc}/en</loc>`);
    expect(map.text).toContain(`${hc}/fr</loc>`);
    expect(map.text).not.toContain(`${hc}/de`);
    expect(map.text).not.toContain(`${hc}/es`);
  });

  it("leads the bare portal URL to a locale with articles when the default has none", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token, {
      config: { allowed_locales: ["en", "fr"], default_locale: "en" },
    });
    await makeArticle(account.id, admin.token, portal.slug, { title: "Factures", locale: "fr" });
    const root = await page(`/hc/${portal.slug}`);
    expect(root.status).toBe(200);
    expect(root.text).toContain('<html lang="fr">');
    expect(root.text).toContain("Factures");
    expect(root.text).not.toContain('class="loc"');
    const en = await page(`/hc/${portal.slug}/en`);
    expect(en.status).toBe(302);
    expect(en.headers.get("location")).toBe(`/hc/${portal.slug}/fr`);
    // A portal with nothing published shows its default locale's home, not a loop.
    const empty = await makePortal(account.id, admin.token);
    const bare = await page(`/hc/${empty.slug}/en`);
    expect(bare.status).toBe(200);
    expect(bare.text).toContain("No articles yet.");
  });

  it("picks dark text on light brand colours and white on dark ones", () => {
    expect(onColor("#f5c518")).toBe("#111827");
    expect(onColor("#ffffff")).toBe("#111827");
    expect(onColor("#1f2937")).toBe("#fff");
    expect(onColor("#aa3300")).toBe("#fff");
    expect(onColor("#fff")).toBe("#111827");
    expect(stringsFor("fr_CA").search).toBe("Rechercher des articles");
  });
});
