import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../support/auth-matrix";
import { createWorld } from "../support/factories";
import { api, expectError } from "../support/http";
import { base, makeArticle, makeCategory, makePortal } from "./support";

describe("POST /portals/{portal_slug}/categories (E11)", () => {
  it("answers the category record and the same record under payload", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const res = await api(`${base(account.id)}/${portal.slug}/categories`, {
      method: "POST",
      token: admin.token,
      body: {
        category: { name: "Getting Started", description: "First steps", icon: "📚", position: 2 },
      },
    });
    expect(res.status).toBe(200);
    const expected = {
      account_id: account.id,
      portal_id: portal.id,
      name: "Getting Started",
      slug: "getting-started",
      locale: "en",
      description: "First steps",
      icon: "📚",
      position: 2,
      parent_category_id: null,
      associated_category_id: null,
      parent_category: null,
      linked_categories: [],
      meta: { articles_count: 0 },
    };
    expect(res.body).toMatchObject(expected);
    expect(res.body.payload).toMatchObject({ ...expected, id: res.body.id });
  });

  it("keeps slugs unique per portal and locale, and links translations", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const en = await makeCategory(account.id, admin.token, portal.slug, { name: "Billing" });
    const es = await makeCategory(account.id, admin.token, portal.slug, {
      name: "Billing",
      locale: "es",
      associated_category_id: en.id,
    });
    const again = await makeCategory(account.id, admin.token, portal.slug, { name: "Billing" });
    expect([en.slug, es.slug, again.slug]).toEqual(["billing", "billing", "billing-2"]);
    expect(es.linked_categories).toEqual([
      { id: en.id, name: "Billing", slug: "billing", locale: "en" },
    ]);
    const shown = await api(`${base(account.id)}/${portal.slug}/categories/${en.id}`, {
      token: admin.token,
    });
    expect(shown.body.linked_categories.map((c: { id: number }) => c.id)).toEqual([es.id]);
    const dup = await api(`${base(account.id)}/${portal.slug}/categories`, {
      method: "POST",
      token: admin.token,
      body: { name: "Other", slug: "billing" },
    });
    expect(expectError(dup, 422).details[0]?.path).toBe("slug");
  });

  it("refuses bad input with 422 and creates nothing", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const other = await makePortal(account.id, admin.token);
    const foreign = await makeCategory(account.id, admin.token, other.slug);
    const cases: [Record<string, unknown>, string][] = [
      [{}, "name"],
      [{ name: "x", locale: "fr" }, "locale"],
      [{ name: "x", parent_category_id: foreign.id }, "parent_category_id"],
      [{ name: "x", associated_category_id: 999999999 }, "associated_category_id"],
      [{ name: "x", position: -1 }, "position"],
      [{ name: "x", slug: "a b" }, "slug"],
    ];
    for (const [body, path] of cases) {
      const res = await api(`${base(account.id)}/${portal.slug}/categories`, {
        method: "POST",
        token: admin.token,
        body,
      });
      expect(expectError(res, 422, "validation_failed").details.map((d) => d.path)).toContain(path);
    }
    const list = await api(`${base(account.id)}/${portal.slug}/categories`, { token: admin.token });
    expect(list.body.payload).toEqual([]);
  });
});

describe("categories: list, update, delete", () => {
  it("lists by locale", async () => {
    const { account, admin, agent } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const en = await makeCategory(account.id, admin.token, portal.slug);
    await makeCategory(account.id, admin.token, portal.slug, { locale: "es" });
    const res = await api(`${base(account.id)}/${portal.slug}/categories?locale=en`, {
      token: agent.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.payload.map((c: { id: number }) => c.id)).toEqual([en.id]);
    expect(res.body.meta).toEqual({ current_page: 1, categories_count: 1 });
  });

  it("refuses a parent that would make a cycle", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const top = await makeCategory(account.id, admin.token, portal.slug);
    const child = await makeCategory(account.id, admin.token, portal.slug, {
      parent_category_id: top.id,
    });
    expect(child.parent_category).toMatchObject({ id: top.id });
    const res = await api(`${base(account.id)}/${portal.slug}/categories/${top.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { parent_category_id: child.id },
    });
    expectError(res, 422);
    const renamed = await api(`${base(account.id)}/${portal.slug}/categories/${top.id}`, {
      method: "PATCH",
      token: admin.token,
      body: { name: "Renamed" },
    });
    expect(renamed.body).toMatchObject({ name: "Renamed", slug: top.slug });
  });

  it("deleting a category leaves its articles uncategorised", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const cat = await makeCategory(account.id, admin.token, portal.slug);
    const article = await makeArticle(account.id, admin.token, portal.slug, {
      category_id: cat.id,
    });
    const res = await api(`${base(account.id)}/${portal.slug}/categories/${cat.id}`, {
      method: "DELETE",
      token: admin.token,
    });
    expect(res.status).toBe(200);
    const after = await api(`${base(account.id)}/${portal.slug}/articles/${article.id}`, {
      token: admin.token,
    });
    expect(after.body).toMatchObject({ category_id: null, category: null });
    expectError(
      await api(`${base(account.id)}/${portal.slug}/categories/${cat.id}`, { token: admin.token }),
      404,
    );
  });
});

const catPath = async (w: Awaited<ReturnType<typeof createWorld>>) => {
  const portal = await makePortal(w.account.id, w.admin.token);
  const cat = await makeCategory(w.account.id, w.admin.token, portal.slug);
  return `${base(w.account.id)}/${portal.slug}/categories/${cat.id}`;
};
const listPath = async (w: Awaited<ReturnType<typeof createWorld>>) =>
  `${base(w.account.id)}/${(await makePortal(w.account.id, w.admin.token)).slug}/categories`;

describeAuthMatrix("GET categories", { method: "GET", path: listPath });
describeAuthMatrix("POST categories", { method: "POST", path: listPath, adminOnly: true });
describeAuthMatrix("GET category", { method: "GET", path: catPath });
describeAuthMatrix("PATCH category", { method: "PATCH", path: catPath, adminOnly: true });
describeAuthMatrix("DELETE category", { method: "DELETE", path: catPath, adminOnly: true });
