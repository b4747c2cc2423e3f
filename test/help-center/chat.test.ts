// Issue 24, point 5: the portal's linked web-widget inbox chats on every help-center page (the
// widget's one tag) under a CSP extended by exactly the widget's loader and frame; on a custom
// domain the pages and their vote form work the same.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createInbox, createWorld, unique } from "../support/factories";
import { api } from "../support/http";
import { base, makeArticle, makeCategory, makePortal, page, verifiedDomain } from "./support";

const ORIGIN = "http://parley.test";

async function linkedPortal() {
  const world = await createWorld();
  const inbox = await createInbox(world.account.id, { channelType: "Channel::WebWidget" });
  const portal = await makePortal(world.account.id, world.admin.token, { inbox_id: inbox.id });
  const category = await makeCategory(world.account.id, world.admin.token, portal.slug, {
    name: "Orders",
  });
  const article = await makeArticle(world.account.id, world.admin.token, portal.slug, {
    title: unique("Track your order"),
    category_id: category.id,
  });
  return { ...world, inbox, portal, category, article };
}

describe("chat on help-center pages", () => {
  it("puts the linked inbox's widget tag on every page, with the CSP allowing it alone", async () => {
    const { account, admin, inbox, portal, category, article } = await linkedPortal();
    const hc = `/hc/${portal.slug}`;
    // The inbox's own snippet (web_widget_script): its colour paints the launcher at once.
    const tag = `<script src="${ORIGIN}/widget.js" data-inbox="${inbox.inboxIdentifier}" data-color="${inbox.widgetColor}" async></script>`;
    for (const path of [
      hc,
      `${hc}/en`,
      `${hc}/en/categories/${category.slug}`,
      `${hc}/en/articles?query=order`,
      `${hc}/articles/${article.slug}`,
      `${hc}/articles/no-such-article`,
    ]) {
      // Twice: the edge-cached copy carries the same tag and the same policy.
      for (const round of ["miss", "hit"]) {
        const res = await page(path);
        expect(res.text, `${path} ${round}`).toContain(tag);
        const csp = res.headers.get("content-security-policy") ?? "";
        expect(csp, `${path} ${round}`).toContain(
          `script-src ${ORIGIN}/hc/helpful.js ${ORIGIN}/widget.js ${ORIGIN}/widget-preview.js;`,
        );
        expect(csp, `${path} ${round}`).toContain(`frame-src ${ORIGIN}/frame;`);
        expect(csp, `${path} ${round}`).toMatch(/^default-src 'none';/);
        expect(csp, `${path} ${round}`).not.toMatch(/connect-src [^;]*https?:\/\//);
      }
    }
    // Unlinked: no tag, and the policy names neither the loader nor a frame.
    await api(`${base(account.id)}/${portal.slug}`, {
      method: "PATCH",
      token: admin.token,
      body: { inbox_id: null },
    });
    const res = await page(`${hc}/articles/${article.slug}`);
    expect(res.text).not.toContain("widget.js");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).not.toContain("widget.js");
    expect(csp).not.toContain("frame-src");
  });

  it("shows a new widget colour on the pages at once, not the cached copy's", async () => {
    const { account, admin, inbox, portal, article } = await linkedPortal();
    const path = `/hc/${portal.slug}/articles/${article.slug}`;
    // Twice: the second answer is the edge cache's copy.
    for (let i = 0; i < 2; i++) {
      expect((await page(path)).text).toContain(`data-color="${inbox.widgetColor}"`);
    }
    const res = await api(`/api/v1/accounts/${account.id}/inboxes/${inbox.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { channel: { widget_color: "#aa00ff" } },
    });
    expect(res.status).toBe(200);
    const after = (await page(path)).text;
    expect(after).toContain('data-color="#aa00ff"');
    expect(after).not.toContain(`data-color="${inbox.widgetColor}"`);
  });

  it("serves the chat and the vote form on the portal's own domain", async () => {
    const { account, admin, inbox, portal, article } = await linkedPortal();
    const domain = `${unique("help").toLowerCase()}.example.com`;
    // Live once verified (test/help-center/domains.test.ts): its token is in DNS.
    await verifiedDomain(account.id, admin.token, portal.slug, domain);
    const own = `http://${domain}`;
    const res = await SELF.fetch(`${own}/articles/${article.slug}`, { headers: { host: domain } });
    const text = await res.text();
    expect(text).toContain(
      `<script src="${own}/widget.js" data-inbox="${inbox.inboxIdentifier}" data-color="${inbox.widgetColor}" async></script>`,
    );
    expect(text).toContain(`<form method="post" action="/articles/${article.slug}/feedback">`);
    expect(res.headers.get("content-security-policy")).toContain(
      `script-src ${own}/hc/helpful.js ${own}/widget.js ${own}/widget-preview.js;`,
    );
    // The script is served on that host too (/hc/ is the service's on every host).
    expect((await SELF.fetch(`${own}/hc/helpful.js`, { headers: { host: domain } })).status).toBe(
      200,
    );
    const voted = await SELF.fetch(`${own}/articles/${article.slug}/feedback`, {
      method: "POST",
      headers: {
        host: domain,
        origin: own,
        "content-type": "application/x-www-form-urlencoded",
        "cf-connecting-ip": "192.0.2.77",
      },
      body: "helpful=yes",
      redirect: "manual",
    });
    expect(voted.status).toBe(303);
    expect(voted.headers.get("location")).toBe(`/articles/${article.slug}?feedback=yes#feedback`);
    expect(voted.headers.get("set-cookie")).toContain("; Path=/;");
    // The service's own origin posting to the domain is another site.
    const crossSite = await SELF.fetch(`${own}/articles/${article.slug}/feedback`, {
      method: "POST",
      headers: {
        host: domain,
        origin: ORIGIN,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "helpful=yes",
      redirect: "manual",
    });
    expect(crossSite.status).toBe(403);
    const record = await api(`${base(account.id)}/${portal.slug}/articles/${article.id}`, {
      token: admin.token,
    });
    expect(record.body.feedback).toEqual({ helpful_count: 1, not_helpful_count: 0 });
  });
});
