import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  SEARCH_CAP,
  searchPublished,
  searchQuery,
  searchWords,
} from "../../worker/modules/help-center/queries.search";
import { createWorld, db } from "../support/factories";
import { queryPlan } from "../support/query-plan";
import { makeArticle, makePortal, page } from "./support";

/** A portal and its articles, made through the API in the given order (so ids ascend). */
async function portalWith(articles: Record<string, unknown>[]) {
  const { account, admin } = await createWorld();
  const portal = await makePortal(account.id, admin.token);
  const made = [];
  for (const body of articles) {
    made.push(await makeArticle(account.id, admin.token, portal.slug, body));
  }
  return { account, admin, portal, ids: made.map((a) => a.id) };
}

const search = (portalId: number, query: string, cap?: number) =>
  searchPublished(db(), portalId, "en", searchWords(query), 20, cap).then((hits) =>
    hits.map((h) => h.id),
  );

/** `count` published articles of a portal whose body has `word`, inserted in one statement. */
async function bulkArticles(accountId: number, portalId: number, count: number, word: string) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO help_articles (account_id, portal_id, locale, title, slug, content, status)
     SELECT ?, ?, 'en', 'Bulk ' || i, 'bulk-' || i, 'Some text about ' || ? || ' here.', 1 FROM n`,
  )
    .bind(count, accountId, portalId, word)
    .run();
}

describe("search over more matches than the cap", () => {
  it("ranks all matches exactly while they fit under the cap", async () => {
    const { portal, ids } = await portalWith([
      { title: "Spreadsheet exports", content: "Long text." },
      { title: "Getting around", content: "A spreadsheet from the menu." },
      { title: "Reports", content: "Numbers.", meta: { tags: ["spreadsheet"] } },
    ]);
    const [titled, body, tagged] = ids;
    expect(await search(portal.id, "spreadsheet")).toEqual([titled, tagged, body]);
    expect(await search(portal.id, "spreadsheet", 3)).toEqual([titled, tagged, body]);
  });

  it("ranks the newest `cap` matches, best first, when a word is in more articles", async () => {
    const { portal, ids } = await portalWith([
      { title: "Spreadsheet basics", content: "Old but titled." },
      { title: "One", content: "A spreadsheet here." },
      { title: "Spreadsheet exports", content: "Titled and new." },
      { title: "Two", content: "A spreadsheet there." },
      { title: "Three", content: "Reports.", meta: { tags: ["spreadsheet"] } },
    ]);
    const [oldTitled, one, titled, two, tagged] = ids;
    // The oldest match is past the cap of 3: the page ranks the 3 newest, title above tag above body.
    expect(await search(portal.id, "spreadsheet", 3)).toEqual([titled, tagged, two]);
    // Equal scores keep the id order, so a page is the same on every call.
    expect(await search(portal.id, "spreadsheet", 5)).toEqual([
      oldTitled,
      titled,
      tagged,
      one,
      two,
    ]);
  });

  it("counts only the portal's own published matches toward the cap", async () => {
    const { portal, ids } = await portalWith([
      { title: "Zeppelin guide", content: "Text." },
      { title: "Zeppelin draft", content: "Text.", status: 0 },
    ]);
    const [guide, draft] = ids as [number, number];
    const other = await portalWith([1, 2, 3, 4].map((i) => ({ title: `Zeppelin ${i}` })));
    expect(other.ids.every((id) => id > draft)).toBe(true);
    expect(await search(portal.id, "zeppelin", 1)).toEqual([guide]);
  });

  it("answers a full page through the route when a word is in more articles than the cap", async () => {
    const { account, portal, ids } = await portalWith([
      { title: "Walrus handbook", content: "Everything about the walrus." },
    ]);
    await bulkArticles(account.id, portal.id, SEARCH_CAP + 50, "walrus");
    const res = await page(`/hc/${portal.slug}/en/articles.json?query=walrus`);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text);
    expect(body.meta).toMatchObject({ query: "walrus", count: 20, popular: false });
    // The titled article is older than every bulk one, so it is past the cap and not ranked.
    expect(body.payload.map((h: { id: number }) => h.id)).not.toContain(ids[0]);
    expect(body.payload[0].snippet_html).toContain("<mark>walrus</mark>");
    const html = await page(`/hc/${portal.slug}/en/articles?query=walrus`);
    expect(html.status).toBe(200);
    expect(html.text.match(/<li>/g)).toHaveLength(20);
  });

  it("treats hostile syntax as plain words on the capped path too", async () => {
    const { account, portal } = await portalWith([]);
    await bulkArticles(account.id, portal.id, 5, "near");
    // Each query's words must all match: `title`, `OR` and `x` are words no article has.
    const cases = {
      '"near': 2,
      "NEAR(near)": 2,
      "near*": 2,
      "^near": 2,
      "title:near": 0,
      "near OR": 0,
      "near -x": 0,
    };
    for (const [q, hits] of Object.entries(cases)) {
      const res = await page(`/hc/${portal.slug}/en/articles.json?query=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(await search(portal.id, q, 2), q).toHaveLength(hits);
    }
  });
});

describe("prefix words", () => {
  it("finds the same articles whether or not an indexed term extends the word", async () => {
    const { portal, ids } = await portalWith([
      { title: "Reset your password", content: "Text." },
      { title: "Passkeys", content: "Text." },
      { title: "Reports", content: "Text." },
      { title: "One report", content: "Text." },
      { title: "Übersicht", content: "Text." },
    ]);
    const [password, passkeys, reports, report, overview] = ids;
    expect(await search(portal.id, "pass")).toEqual([passkeys, password]);
    expect(await search(portal.id, "password")).toEqual([password]);
    expect(await search(portal.id, "PASSWORD")).toEqual([password]);
    expect(await search(portal.id, "report")).toEqual([reports, report]);
    expect(await search(portal.id, "reports")).toEqual([reports]);
    expect(await search(portal.id, "uber")).toEqual([overview]);
    expect(await search(portal.id, "über")).toEqual([overview]);
    expect(await search(portal.id, "passwordz")).toEqual([]);
  });
});

describe("search query plan", () => {
  it("walks the full-text index first and reads articles by primary key, never scanning them", async () => {
    const query = searchQuery(1, "en", ["parley"], 20);
    const plan = (await queryPlan(query)).join("\n");
    // M: the MATCH; > or >=: the cap's rowid bound, pushed into FTS5 so it skips older matches.
    expect(plan).toMatch(/SCAN help_articles_fts VIRTUAL TABLE INDEX \d+:M\d*[>G]/);
    expect(plan).toMatch(/SEARCH a USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(plan).toMatch(/SEARCH c USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(plan).not.toMatch(/SCAN (a|c)\b|USING (COVERING )?INDEX help_articles/);
    // The subquery's ORDER BY rowid DESC is FTS5's own order: no sort before the LIMIT.
    expect(plan.match(/TEMP B-TREE/g) ?? []).toHaveLength(1);
    // Whether a term extends the word is a seek in the term list (a non-zero index number).
    expect(plan).toMatch(/SCAN help_articles_fts_terms VIRTUAL TABLE INDEX [1-9]/);
  });
});
