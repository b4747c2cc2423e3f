// Issue 24, point 5: "Was this helpful?" under public articles — one vote per visitor cookie
// and article, bounded, same-origin only, rate limited per address — and its counts and
// comments in the account API.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { helpArticleFeedback } from "../../worker/db/schema";
import { createWorld, db, unique } from "../support/factories";
import { api } from "../support/http";
import { inOneWindow } from "../support/rate-window";
import { base, makeArticle, makePortal, page } from "./support";

const ORIGIN = "http://parley.test";
let ipSeq = 0;
/** A fresh address per test, so the per-address limit of one test never meets another's. */
const freshIp = () => `203.0.113.${(++ipSeq % 250) + 1}`;

async function setup() {
  const world = await createWorld();
  const portal = await makePortal(world.account.id, world.admin.token);
  const article = await makeArticle(world.account.id, world.admin.token, portal.slug, {
    title: unique("Reset your password"),
  });
  const action = `/hc/${portal.slug}/articles/${article.slug}/feedback`;
  return { ...world, portal, article, action, ip: freshIp() };
}

type Vote = {
  body?: string;
  cookie?: string;
  json?: boolean;
  headers?: Record<string, string>;
  ip: string;
  url?: string;
};

/** The article page's form as a browser posts it (same origin unless told). */
async function vote(action: string, v: Vote) {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    origin: ORIGIN,
    "cf-connecting-ip": v.ip,
    accept: v.json ? "application/json" : "text/html,application/xhtml+xml",
    ...(v.cookie ? { cookie: v.cookie } : {}),
    ...v.headers,
  };
  const res = await SELF.fetch(v.url ?? `${ORIGIN}${action}`, {
    method: "POST",
    headers,
    body: v.body ?? "helpful=yes",
    redirect: "manual",
  });
  const text = await res.text();
  const setCookie = res.headers.get("set-cookie");
  return {
    status: res.status,
    headers: res.headers,
    text,
    cookie: setCookie ? (setCookie.split(";")[0] as string) : undefined,
    setCookie,
  };
}

async function counts(accountId: number, token: string, portalSlug: string, id: number) {
  const res = await api(`${base(accountId)}/${portalSlug}/articles/${id}`, { token });
  expect(res.status).toBe(200);
  return res.body.feedback as { helpful_count: number; not_helpful_count: number };
}

describe('"Was this helpful?" on public articles', () => {
  it("shows the question under the article, with its script allowed by path and no other", async () => {
    const { portal, article } = await setup();
    const res = await page(`/hc/${portal.slug}/articles/${article.slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      `<form method="post" action="/hc/${portal.slug}/articles/${article.slug}/feedback"><h2 id="fb-h">Was this article helpful?</h2>`,
    );
    expect(res.text).toContain('<button name="helpful" value="yes">Yes</button>');
    expect(res.text).toContain(`<script src="${ORIGIN}/hc/helpful.js" defer></script>`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`script-src ${ORIGIN}/hc/helpful.js;`);
    expect(csp).not.toMatch(/'unsafe-inline'[^;]*;[^;]*script|script-src[^;]*'self'|unsafe-eval/);
    expect(csp).toContain("form-action 'self'");
    const script = await SELF.fetch(`${ORIGIN}/hc/helpful.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('getElementById("feedback")');
  });

  it("counts one vote per visitor: a form POST answers 303 with a cookie, a new vote moves", async () => {
    const { account, admin, portal, article, action, ip } = await setup();
    const first = await vote(action, { ip });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe(
      `/hc/${portal.slug}/articles/${article.slug}?feedback=yes#feedback`,
    );
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.setCookie).toMatch(
      new RegExp(
        `^parley_hc=[\\w-]{22}; Path=/hc/${portal.slug}; Max-Age=31536000; HttpOnly; SameSite=Lax$`,
      ),
    );
    const cookie = first.cookie as string;
    // The same visitor again: no new cookie, the one vote changes side.
    const again = await vote(action, { ip, cookie, body: "helpful=no" });
    expect(again.status).toBe(303);
    expect(again.setCookie).toBeNull();
    expect(again.headers.get("location")).toContain("?feedback=no#feedback");
    expect(await counts(account.id, admin.token, portal.slug, article.id)).toEqual({
      helpful_count: 0,
      not_helpful_count: 1,
    });
    // Voting the same twice adds nothing; another visitor adds one.
    await vote(action, { ip, cookie, body: "helpful=no" });
    await vote(action, { ip, body: "helpful=yes" });
    expect(await counts(account.id, admin.token, portal.slug, article.id)).toEqual({
      helpful_count: 1,
      not_helpful_count: 1,
    });
    // A forged cookie value is not a visitor: a new cookie is handed out.
    const forged = await vote(action, { ip, cookie: "parley_hc=<script>" });
    expect(forged.setCookie).toMatch(/^parley_hc=[\w-]{22};/);
  });

  it("asks for a comment after the vote, and keeps it (JSON for the page's script)", async () => {
    const { account, admin, agent, portal, article, action, ip } = await setup();
    const after = await page(`/hc/${portal.slug}/articles/${article.slug}?feedback=no`);
    expect(after.text).toContain(
      '<p id="fb-h" class="fb-t" tabindex="-1">Thanks for your feedback!</p>',
    );
    expect(after.text).toContain('<input type="hidden" name="helpful" value="no">');
    expect(after.text).toContain('maxlength="500" required></textarea>');
    const voted = await vote(action, { ip, json: true, body: "helpful=no" });
    expect(voted.status).toBe(200);
    const state = JSON.parse(voted.text) as { helpful: boolean; comment: boolean; html: string };
    expect(state).toMatchObject({ helpful: false, comment: false });
    expect(state.html).toContain("What was missing or unclear? (optional)");
    const cookie = voted.cookie as string;
    const comment = "The <b>screenshots</b> are from the old app & the menu moved.";
    const sent = await vote(action, {
      ip,
      cookie,
      json: true,
      body: new URLSearchParams({ helpful: "no", comment }).toString(),
    });
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.text).html).toContain("Thank you, your comment was sent.");
    // A form's comment lands on the thanks state.
    const formSent = await vote(action, {
      ip,
      body: new URLSearchParams({ helpful: "yes", comment: "  Clear, thanks!  " }).toString(),
    });
    expect(formSent.headers.get("location")).toContain("?feedback=sent#feedback");
    const sentPage = await page(`/hc/${portal.slug}/articles/${article.slug}?feedback=sent`);
    expect(sentPage.text).toContain("Thank you, your comment was sent.");
    expect(sentPage.text).not.toContain("<textarea");

    const list = await api(`${base(account.id)}/${portal.slug}/articles/${article.id}/feedback`, {
      token: admin.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({
      current_page: 1,
      comments_count: 2,
      helpful_count: 1,
      not_helpful_count: 1,
    });
    expect(list.body.payload.map((f: { comment: string }) => f.comment).sort()).toEqual(
      ["Clear, thanks!", comment].sort(),
    );
    expect(Object.keys(list.body.payload[0]).sort()).toEqual(
      ["comment", "created_at", "helpful", "id", "updated_at"].sort(),
    );
    // Administrators only; another account's article is 404.
    const asAgent = await api(
      `${base(account.id)}/${portal.slug}/articles/${article.id}/feedback`,
      { token: agent.token },
    );
    expect(asAgent.status).toBe(403);
    const other = await createWorld();
    const foreign = await api(
      `${base(other.account.id)}/${portal.slug}/articles/${article.id}/feedback`,
      { token: other.admin.token },
    );
    expect(foreign.status).toBe(404);
    // Changing sides without a new comment drops the one made with the other side.
    await vote(action, { ip, cookie, body: "helpful=yes" });
    const later = await api(`${base(account.id)}/${portal.slug}/articles/${article.id}/feedback`, {
      token: admin.token,
    });
    expect(later.body.meta).toMatchObject({ comments_count: 1, helpful_count: 2 });
  });

  it("refuses cross-site posts, bad input and non-public articles, storing nothing", async () => {
    const { account, admin, portal, article, action, ip } = await setup();
    const refused: [string, Vote, number][] = [
      ["other origin", { ip, headers: { origin: "https://evil.example" } }, 403],
      ["null origin", { ip, headers: { origin: "null" } }, 403],
      [
        "no origin, cross-site",
        { ip, headers: { origin: "", "sec-fetch-site": "cross-site" } },
        403,
      ],
      [
        "JSON body",
        { ip, headers: { "content-type": "application/json" }, body: '{"helpful":"yes"}' },
        415,
      ],
      ["no answer", { ip, body: "comment=hi" }, 422],
      ["bad answer", { ip, body: "helpful=maybe" }, 422],
      ["long comment", { ip, body: `helpful=no&comment=${"x".repeat(501)}` }, 422],
      ["huge body", { ip, body: `helpful=no&pad=${"x".repeat(5000)}` }, 413],
    ];
    for (const [what, v, status] of refused) {
      const res = await vote(action, v);
      expect(res.status, what).toBe(status);
      expect(res.setCookie, what).toBeNull();
      // A form sees a page saying why, with the way back; the script gets the one error body.
      expect(res.headers.get("content-type"), what).toMatch(/^text\/html/);
      expect(res.text, what).toContain("Your feedback could not be saved.");
      const json = await vote(action, { ...v, json: true });
      expect(json.status, what).toBe(status);
      expect(JSON.parse(json.text).error, what).toEqual(expect.any(String));
    }
    // Same-origin without an Origin header (Sec-Fetch-Site says so) is fine.
    const sameSite = await vote(action, {
      ip,
      headers: { origin: "", "sec-fetch-site": "same-origin" },
    });
    expect(sameSite.status).toBe(303);
    expect(await counts(account.id, admin.token, portal.slug, article.id)).toEqual({
      helpful_count: 1,
      not_helpful_count: 0,
    });
    // Drafts, unknown articles and unknown portals: 404.
    const draft = await makeArticle(account.id, admin.token, portal.slug, { status: 0 });
    for (const path of [
      `/hc/${portal.slug}/articles/${draft.slug}/feedback`,
      `/hc/${portal.slug}/articles/no-such-article/feedback`,
      `/hc/no-such-portal-${ip}/articles/${article.slug}/feedback`,
      `/hc/${portal.slug}/articles/%E0%A4/feedback`,
    ]) {
      expect((await vote(path, { ip })).status, path).toBe(404);
    }
  });

  it("limits votes per address (429 with Retry-After), whatever the cookies", async () => {
    const { action } = await setup();
    // The limit counts in clock-aligned minutes: 22 votes must not straddle one's end.
    await inOneWindow(15, async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        statuses.push((await vote(action, { ip })).status);
      }
      expect(statuses.slice(0, 20).every((s) => s === 303)).toBe(true);
      const limited = await vote(action, { ip });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited.text).toContain("Too many votes from your network just now.");
      expect((await vote(action, { ip, json: true })).status).toBe(429);
    });
    // Another address is not limited by it.
    expect((await vote(action, { ip: freshIp() })).status).toBe(303);
  });

  it("deletes an article's votes with it", async () => {
    const { account, admin, portal, article, action, ip } = await setup();
    await vote(action, { ip });
    const stored = await db()
      .select()
      .from(helpArticleFeedback)
      .where(eq(helpArticleFeedback.articleId, article.id))
      .all();
    // The visitor is the cookie's SHA-256, nothing else about them.
    expect(stored).toHaveLength(1);
    expect(stored[0]?.visitor).toMatch(/^[0-9a-f]{64}$/);
    const del = await api(`${base(account.id)}/${portal.slug}/articles/${article.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(del.status).toBe(200);
    const left = await db()
      .select()
      .from(helpArticleFeedback)
      .where(eq(helpArticleFeedback.articleId, article.id))
      .all();
    expect(left).toEqual([]);
  });
});
