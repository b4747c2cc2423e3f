import { describe, expect, it, vi } from "vitest";
import { flushViews } from "../../worker/modules/help-center/views";
import { createWorld, db, unique } from "../support/factories";
import { api } from "../support/http";
import { base, makeArticle, makeCategory, makePortal, page, verifiedDomain } from "./support";

async function helpCenter() {
  const world = await createWorld();
  const { account, admin } = world;
  const portal = await makePortal(account.id, admin.token, {
    color: "#aa3300",
    header_text: "How can we help?",
    page_title: "Acme Help",
  });
  const en = await makeCategory(account.id, admin.token, portal.slug, {
    name: "Billing",
    icon: "💳",
  });
  const es = await makeCategory(account.id, admin.token, portal.slug, {
    name: "Facturación",
    locale: "es",
    associated_category_id: en.id,
  });
  const published = await makeArticle(account.id, admin.token, portal.slug, {
    title: "Download invoices",
    content:
      "## Where\n\nOpen **Settings** and pick the zebrafish tab.\n\n## Why\n\ntext\n\n## When\n\nAny time.",
    category_id: en.id,
    meta: { tags: ["pdf"] },
  });
  const translated = await makeArticle(account.id, admin.token, portal.slug, {
    title: "Descargar facturas",
    category_id: es.id,
    associated_article_id: published.id,
  });
  const draft = await makeArticle(account.id, admin.token, portal.slug, {
    title: "Secret draft",
    status: 0,
    category_id: en.id,
  });
  const archived = await makeArticle(account.id, admin.token, portal.slug, {
    title: "Old",
    status: 2,
  });
  return { ...world, portal, en, es, published, translated, draft, archived };
}

describe("public help center pages", () => {
  it("serves the home page of the default locale with categories, counts and theming", async () => {
    const { account, admin, portal } = await helpCenter();
    // A link that passes validation but not URL parsing still renders (as its text).
    await api(`${base(account.id)}/${portal.slug}`, {
      method: "PATCH",
      token: admin.token,
      body: { homepage_link: "http://[bad" },
    });
    for (const path of [`/hc/${portal.slug}`, `/hc/${portal.slug}/en`]) {
      const res = await page(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.text).toContain("<title>Acme Help</title>");
      expect(res.text).toContain("How can we help?");
      expect(res.text).toContain("--c:#aa3300");
      expect(res.text).toContain(`href="/hc/${portal.slug}/en/categories/billing"`);
      expect(res.text).toContain("1 article<");
      expect(res.text).toContain("Download invoices");
      expect(res.text).not.toContain("Secret draft");
      expect(res.text).not.toContain(">Old<");
      expect(res.text).toContain('hreflang="es"');
      expect(res.text).not.toMatch(/<script(?! type="application\/ld\+json")/);
    }
    const es = await page(`/hc/${portal.slug}/es`);
    expect(es.text).toContain("Facturación");
    expect(es.text).toContain("Descargar facturas");
    expect(es.text).not.toContain("Download invoices");
    expect((await page(`/hc/${portal.slug}/fr`)).status).toBe(404);
  });

  it("serves a published article with rendered markdown, breadcrumbs, contents and metadata", async () => {
    const { portal, published, translated } = await helpCenter();
    const res = await page(`/hc/${portal.slug}/articles/${published.slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain("<strong>Settings</strong>");
    expect(res.text).toContain('<h2 id="where">Where</h2>');
    expect(res.text).toContain('class="toc"');
    expect(res.text).toContain('aria-label="Breadcrumb"');
    expect(res.text).toContain(
      `<link rel="canonical" href="http://parley.test/hc/${portal.slug}/articles/${published.slug}">`,
    );
    expect(res.text).toContain(
      `hreflang="es" href="http://parley.test/hc/${portal.slug}/articles/${translated.slug}"`,
    );
    expect(res.text).toContain('"@type":"Article"');
    expect(res.text).toContain('property="og:type" content="article"');
    expect(res.text).toContain("Last updated");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");

    const md = await page(`/hc/${portal.slug}/articles/${published.slug}.md`);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(md.text).toContain("Open **Settings**");
  });

  it("answers 404 for drafts, archived articles, unknown paths and archived portals", async () => {
    const { account, admin, portal, draft, archived, published } = await helpCenter();
    for (const path of [
      `/hc/${portal.slug}/articles/${draft.slug}`,
      `/hc/${portal.slug}/articles/${draft.slug}.md`,
      `/hc/${portal.slug}/articles/${archived.slug}`,
      `/hc/${portal.slug}/en/categories/nope`,
      `/hc/${portal.slug}/en/nothing/here`,
      `/hc/${unique("nope").toLowerCase()}`,
      `/hc/${portal.slug}/articles/%E0%A4%A`,
      `/hc/${portal.slug}/%ZZ/categories/x`,
    ]) {
      const res = await page(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    }
    await api(`${base(account.id)}/${portal.slug}`, {
      method: "PATCH",
      token: admin.token,
      body: { archived: true },
    });
    for (const path of [`/hc/${portal.slug}`, `/hc/${portal.slug}/articles/${published.slug}`]) {
      expect((await page(path)).status, path).toBe(404);
    }
  });

  it("lists a category's published articles", async () => {
    const { portal } = await helpCenter();
    const res = await page(`/hc/${portal.slug}/en/categories/billing`);
    expect(res.status).toBe(200);
    expect(res.text).toContain("Download invoices");
    expect(res.text).not.toContain("Secret draft");
    expect(res.text).toContain(`href="/hc/${portal.slug}/es/categories/`);
  });

  it("serves sitemap.xml and robots.txt with only public URLs", async () => {
    const { portal, published, draft } = await helpCenter();
    const map = await page(`/hc/${portal.slug}/sitemap.xml`);
    expect(map.status).toBe(200);
    expect(map.text).toContain(`/articles/${published.slug}</loc>`);
    expect(map.text).not.toContain(draft.slug);
    const robots = await page(`/hc/${portal.slug}/robots.txt`);
    expect(robots.text).toContain(`Sitemap: http://parley.test/hc/${portal.slug}/sitemap.xml`);
  });
});

describe("service-wide paths", () => {
  it("serves a favicon in the portal's colour and a robots.txt naming live portals' sitemaps", async () => {
    const { account, admin, portal } = await helpCenter();
    const icon = await page(`/hc/${portal.slug}/favicon.svg`);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(icon.text).toContain('fill="#aa3300"');
    const robots = await page("/robots.txt");
    expect(robots.text).toContain("Disallow: /api/");
    expect(robots.text).toContain(`Sitemap: http://parley.test/hc/${portal.slug}/sitemap.xml`);
    await api(`${base(account.id)}/${portal.slug}`, {
      method: "PATCH",
      token: admin.token,
      body: { archived: true },
    });
    expect((await page("/robots.txt")).text).not.toContain(`/hc/${portal.slug}/`);
  });
});

describe("public search", () => {
  it("finds a published article by a word in its body, with a highlighted snippet", async () => {
    const { portal, published } = await helpCenter();
    const res = await page(`/hc/${portal.slug}/en/articles?query=zebra`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`/articles/${published.slug}`);
    expect(res.text).toContain("<mark>zebrafish</mark>");
    const json = await page(`/hc/${portal.slug}/en/articles?query=zebra`, {
      accept: "application/json",
    });
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    expect(JSON.parse(json.text)).toMatchObject({
      payload: [{ id: published.id, slug: published.slug, title: "Download invoices" }],
      meta: { count: 1 },
    });
    const dotJson = await page(`/hc/${portal.slug}/en/articles.json?query=secret`);
    expect(JSON.parse(dotJson.text).payload).toEqual([]);
  });

  it("answers the most viewed articles as JSON to an empty query, and an article as sanitised JSON", async () => {
    const { portal, published } = await helpCenter();
    const popular = JSON.parse((await page(`/hc/${portal.slug}/en/articles.json`)).text);
    expect(popular.meta).toMatchObject({ popular: true, count: 1 });
    expect(popular.payload[0]).toMatchObject({ id: published.id, title: "Download invoices" });
    const res = await page(`/hc/${portal.slug}/articles/${published.slug}.json`);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(JSON.parse(res.text)).toMatchObject({
      id: published.id,
      url: `http://parley.test/hc/${portal.slug}/articles/${published.slug}`,
      html: expect.stringContaining("<strong>Settings</strong>"),
    });
  });

  it("ranks title and tag matches above body matches", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const body = await makeArticle(account.id, admin.token, portal.slug, {
      title: "Getting around",
      content: "You can export a report as a spreadsheet from the menu.",
    });
    const tagged = await makeArticle(account.id, admin.token, portal.slug, {
      title: "Reports",
      content: "All about numbers.",
      meta: { tags: ["spreadsheet"] },
    });
    const titled = await makeArticle(account.id, admin.token, portal.slug, {
      title: "Spreadsheet exports",
      content: "Long text.",
    });
    const res = await page(`/hc/${portal.slug}/en/articles.json?query=spreadsheet`);
    expect(JSON.parse(res.text).payload.map((h: { id: number }) => h.id)).toEqual([
      titled.id,
      tagged.id,
      body.id,
    ]);
  });

  it("treats hostile query syntax as plain words, never a 5xx", async () => {
    const { portal } = await helpCenter();
    for (const q of [
      '"',
      "NEAR(a b)",
      "title:x",
      "*",
      "a OR",
      "^x",
      "-",
      "'); DROP TABLE x;--",
      "\u0000",
      "AND AND",
    ]) {
      const res = await page(`/hc/${portal.slug}/en/articles?query=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
  });
});

describe("caching", () => {
  it("sends an ETag and answers 304 to If-None-Match; any change makes a new page", async () => {
    const { account, admin, portal, published } = await helpCenter();
    const path = `/hc/${portal.slug}/articles/${published.slug}`;
    const first = await page(path);
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(first.headers.get("cache-control")).toMatch(/s-maxage=\d+/);
    const again = await page(path, { "if-none-match": etag ?? "" });
    expect(again.status).toBe(304);

    await api(`${base(account.id)}/${portal.slug}/articles/${published.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { content: "Brand new body text." },
    });
    const changed = await page(path, { "if-none-match": etag ?? "" });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain("Brand new body text.");
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("serves the edge-cached copy until something in the portal changes", async () => {
    const { account, admin, portal } = await helpCenter();
    const path = `/hc/${portal.slug}/en`;
    await page(path);
    // The copy is stored after the response (waitUntil): wait for it.
    let cached = "";
    for (let i = 0; i < 20 && cached !== "hit"; i++) {
      cached = (await page(path)).headers.get("x-hc-cache") ?? "";
    }
    expect(cached).toBe("hit");
    await makeArticle(account.id, admin.token, portal.slug, { title: "Fresh article" });
    const after = await page(path);
    expect(after.headers.get("x-hc-cache")).toBe("miss");
    expect(after.text).toContain("Fresh article");
  });
});

describe("custom domains", () => {
  it("serves the portal at / for a request whose Host is its custom domain", async () => {
    const { account, admin, portal, published } = await helpCenter();
    const domain = `${unique("help").toLowerCase()}.example.com`;
    // Live once verified (test/help-center/domains.test.ts): its token is in DNS.
    await verifiedDomain(account.id, admin.token, portal.slug, domain);
    const home = await page("/", { host: domain });
    expect(home.status).toBe(200);
    expect(home.text).toContain("Acme Help");
    expect(home.text).toContain('href="/en/categories/billing"');
    const article = await page(`/articles/${published.slug}`, { host: domain });
    expect(article.status).toBe(200);
    expect(article.text).toContain(
      `<link rel="canonical" href="https://${domain}/articles/${published.slug}">`,
    );
    // The API is still the API on that host.
    const apiRes = await page(`/api/v1/accounts/${account.id}/portals`, { host: domain });
    expect(apiRes.status).toBe(401);
    // Another host is not the portal.
    const other = await page("/", { host: "parley.test" });
    expect(other.text).toContain('"name":"parley"');
    // A portal that leaves the domain stops answering on it at once.
    await api(`${base(account.id)}/${portal.slug}`, {
      method: "PATCH",
      token: admin.token,
      body: { custom_domain: null },
    });
    expect((await page("/", { host: domain })).text).toContain('"name":"parley"');
  });
});

describe("view counting", () => {
  it("adds article views up in the isolate and writes them in batches", async () => {
    const { account, admin, portal, published } = await helpCenter();
    const views = async () =>
      (
        await api(`${base(account.id)}/${portal.slug}/articles/${published.id}`, {
          token: admin.token,
        })
      ).body.views as number;
    await flushViews(db());
    for (let i = 0; i < 5; i++) {
      await page(`/hc/${portal.slug}/articles/${published.slug}`);
    }
    // Fewer than a batch and within the flush interval: nothing written yet.
    expect(await views()).toBe(0);
    for (let i = 0; i < 20; i++) {
      await page(`/hc/${portal.slug}/articles/${published.slug}`);
    }
    await flushViews(db());
    // The batch that the 20th view started is written after its response (waitUntil).
    await vi.waitFor(async () => expect(await views()).toBe(25), { timeout: 15_000, interval: 50 });
  });
});
