import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../support/auth-matrix";
import { createInbox, createWorld, unique } from "../support/factories";
import { api, expectError } from "../support/http";
import { base, makeArticle, makeCategory, makePortal } from "./support";

describe("portals: create, show, list", () => {
  it("creates a portal and answers the record and the same record under payload", async () => {
    const { account, admin } = await createWorld();
    const slug = unique("docs").toLowerCase();
    const res = await api(base(account.id), {
      method: "POST",
      token: admin.token,
      body: {
        portal: {
          name: "Docs",
          slug,
          color: "#1F93FF",
          header_text: "How can we help?",
          homepage_link: "https://example.com",
          page_title: "Example Docs",
          config: { allowed_locales: ["en", "fr"], default_locale: "fr" },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Docs",
      slug,
      archived: false,
      color: "#1F93FF",
      custom_domain: null,
      account_id: account.id,
      config: {
        allowed_locales: [
          { code: "en", articles_count: 0, categories_count: 0 },
          { code: "fr", articles_count: 0, categories_count: 0 },
        ],
        default_locale: "fr",
      },
      inbox: null,
      logo: null,
      meta: { all_articles_count: 0, categories_count: 0, default_locale: "fr" },
      public_url: `http://parley.test/hc/${slug}`,
    });
    expect(res.body.payload).toEqual({ ...res.body, payload: undefined, ...res.body.payload });
    expect(res.body.payload.id).toBe(res.body.id);

    const shown = await api(`${base(account.id)}/${slug}`, { token: admin.token });
    expect(shown.status).toBe(200);
    expect(shown.body.id).toBe(res.body.id);
  });

  it("makes a unique, URL-safe slug from the name when the slug is blank, in any script", async () => {
    const { account, admin } = await createWorld();
    const name = `Центр помощи ${unique("x")}`;
    const first = await makePortal(account.id, admin.token, { name, slug: "" });
    const second = await makePortal(account.id, admin.token, { name, slug: undefined });
    expect(first.slug).toMatch(/^центр-помощи-x-/);
    expect(second.slug).toBe(`${first.slug}-2`);
  });

  it("lists the account's portals with counts per locale and status", async () => {
    const { account, admin, agent } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const cat = await makeCategory(account.id, admin.token, portal.slug, { locale: "es" });
    await makeArticle(account.id, agent.token, portal.slug, { category_id: cat.id });
    await makeArticle(account.id, admin.token, portal.slug, { status: 0 });
    await makeArticle(account.id, admin.token, portal.slug, { status: "archived" });
    const other = await createWorld();
    await makePortal(other.account.id, other.admin.token);

    const res = await api(base(account.id), { token: agent.token });
    expect(res.status).toBe(200);
    expect(res.body.payload).toHaveLength(1);
    expect(res.body.payload[0]).toMatchObject({
      id: portal.id,
      config: {
        allowed_locales: [
          { code: "en", articles_count: 2, categories_count: 0 },
          { code: "es", articles_count: 1, categories_count: 1 },
        ],
      },
      meta: {
        all_articles_count: 3,
        published_count: 1,
        draft_articles_count: 1,
        archived_articles_count: 1,
        mine_articles_count: 1,
        categories_count: 1,
      },
    });
  });

  it("answers 404 for an unknown slug and for another account's portal", async () => {
    const { account, admin } = await createWorld();
    const other = await createWorld();
    const theirs = await makePortal(other.account.id, other.admin.token);
    expectError(await api(`${base(account.id)}/no-such-portal`, { token: admin.token }), 404);
    expectError(await api(`${base(account.id)}/${theirs.slug}`, { token: admin.token }), 404);
    expectError(
      await api(`${base(account.id)}/no-such-portal`, {
        method: "PATCH",
        token: admin.token,
        body: { name: "x" },
      }),
      404,
    );
  });
});

describe("PATCH /portals/{portal_slug} (E9)", () => {
  it("updates fields, renames the slug and links a web-widget inbox", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const widget = await createInbox(account.id, {
      channelType: "Channel::WebWidget",
      websiteUrl: "https://shop.example",
    });
    const slug = unique("renamed").toLowerCase();
    const domain = `${unique("help").toLowerCase()}.example.com`;
    const res = await api(`${base(account.id)}/${portal.slug}`, {
      method: "PATCH",
      token: admin.token,
      body: {
        slug,
        archived: true,
        custom_domain: domain.toUpperCase(),
        inbox_id: widget.id,
        config: { allowed_locales: ["de"] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({
      slug,
      archived: true,
      custom_domain: domain,
      config: { allowed_locales: [{ code: "de" }], default_locale: "de" },
      inbox: {
        id: widget.id,
        channel_type: "Channel::WebWidget",
        website_token: widget.inboxIdentifier,
        // The inbox's own snippet, brand colour included (launcher coloured from the first paint).
        web_widget_script: `<script src="http://parley.test/widget.js" data-inbox="${widget.inboxIdentifier}" data-color="${widget.widgetColor}" async></script>`,
      },
      // A claim until verified (test/help-center/domains.test.ts): still read under /hc.
      custom_domain_verification: {
        status: "pending",
        record_name: `_parley-challenge.${domain}`,
      },
      public_url: `http://parley.test/hc/${slug}`,
    });
    expect(res.body.slug).toBe(slug);
    expectError(await api(`${base(account.id)}/${portal.slug}`, { token: admin.token }), 404);
  });

  it("refuses bad input with 422 and saves nothing", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const taken = await makePortal(account.id, admin.token, {
      custom_domain: `${unique("d").toLowerCase()}.example.org`,
    });
    const apiInbox = await createInbox(account.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ color: "red" }, "color"],
      [{ slug: "Has Spaces!" }, "slug"],
      [{ slug: taken.slug }, "slug"],
      [{ custom_domain: "not a domain" }, "custom_domain"],
      [{ custom_domain: "chat.parley.test" }, "custom_domain"],
      [{ custom_domain: "help.localhost" }, "custom_domain"],
      [{ homepage_link: "javascript:alert(1)" }, "homepage_link"],
      [{ config: { allowed_locales: ["en"], default_locale: "fr" } }, "config.default_locale"],
      [{ config: { allowed_locales: ["not a locale"] } }, "config.allowed_locales.0"],
      [{ inbox_id: apiInbox.id }, "inbox_id"],
      [{ archived: "yes" }, "archived"],
      [{ name: "" }, "name"],
    ];
    for (const [body, path] of cases) {
      const res = await api(`${base(account.id)}/${portal.slug}`, {
        method: "PATCH",
        token: admin.token,
        body,
      });
      const error = expectError(res, 422, "validation_failed");
      expect(error.details.map((d) => d.path)).toContain(path);
    }
    const after = await api(`${base(account.id)}/${portal.slug}`, { token: admin.token });
    expect(after.body).toMatchObject({
      color: null,
      custom_domain: null,
      inbox: null,
      archived: false,
    });
  });
});

describe("DELETE /portals/{portal_slug}", () => {
  it("deletes the portal with its categories and articles", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    await makeCategory(account.id, admin.token, portal.slug);
    await makeArticle(account.id, admin.token, portal.slug);
    const res = await api(`${base(account.id)}/${portal.slug}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expectError(await api(`${base(account.id)}/${portal.slug}`, { token: admin.token }), 404);
  });
});

describe("portal logo", () => {
  it("stores an uploaded image and removes it", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const png = Uint8Array.from(
      atob(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      ),
      (ch) => ch.charCodeAt(0),
    );
    const form = new FormData();
    form.append("logo", new File([png], "logo.png", { type: "image/png" }));
    const res = await api(`${base(account.id)}/${portal.slug}/logo`, {
      method: "POST",
      token: admin.token,
      raw: form,
    });
    expect(res.status).toBe(200);
    expect(res.body.logo).toMatchObject({ file_type: "image/png", filename: "logo.png" });
    const file = await SELF.fetch(res.body.logo.file_url);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);

    const text = new FormData();
    text.append("logo", new File(["<svg onload=alert(1)>"], "x.svg", { type: "image/svg+xml" }));
    expectError(
      await api(`${base(account.id)}/${portal.slug}/logo`, {
        method: "POST",
        token: admin.token,
        raw: text,
      }),
      422,
    );
    const removed = await api(`${base(account.id)}/${portal.slug}/logo`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(removed.status).toBe(200);
    expect(removed.body.logo).toBeNull();
  });
});

const portalPath = async (w: Awaited<ReturnType<typeof createWorld>>) =>
  `${base(w.account.id)}/${(await makePortal(w.account.id, w.admin.token)).slug}`;

describeAuthMatrix("GET /portals", { method: "GET", path: (w) => base(w.account.id) });
describeAuthMatrix("POST /portals", {
  method: "POST",
  path: (w) => base(w.account.id),
  adminOnly: true,
});
describeAuthMatrix("GET /portals/{slug}", { method: "GET", path: portalPath });
describeAuthMatrix("PATCH /portals/{slug}", { method: "PATCH", path: portalPath, adminOnly: true });
describeAuthMatrix("DELETE /portals/{slug}", {
  method: "DELETE",
  path: portalPath,
  adminOnly: true,
});
describeAuthMatrix("DELETE /portals/{slug}/logo", {
  method: "DELETE",
  path: async (w) => `${await portalPath(w)}/logo`,
  adminOnly: true,
});
