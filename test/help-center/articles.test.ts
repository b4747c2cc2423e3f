import { describe, expect, it } from "vitest";
import { describeAuthMatrix } from "../support/auth-matrix";
import { createAgent, createUser, createWorld } from "../support/factories";
import { api, expectError } from "../support/http";
import { base, makeArticle, makeCategory, makePortal } from "./support";

describe("POST /portals/{portal_slug}/articles (E10)", () => {
  it("lets an agent write; answers the record and payload with the status label", async () => {
    const { account, admin, agent } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const cat = await makeCategory(account.id, admin.token, portal.slug, { locale: "es" });
    const res = await api(`${base(account.id)}/${portal.slug}/articles`, {
      method: "POST",
      token: agent.token,
      body: {
        article: {
          title: "¿Cómo cambio mi contraseña?",
          content: "# Pasos\n\nAbre *ajustes*.",
          description: "Cambiar la contraseña",
          status: 1,
          category_id: cat.id,
          meta: { tags: ["cuenta", "seguridad"], title: "Contraseña" },
        },
      },
    });
    expect(res.status).toBe(200);
    const expected = {
      account_id: account.id,
      portal_id: portal.id,
      title: "¿Cómo cambio mi contraseña?",
      slug: "como-cambio-mi-contrasena",
      status: "published",
      locale: "es",
      category_id: cat.id,
      category: { id: cat.id, slug: cat.slug, locale: "es" },
      author_id: agent.id,
      author: { id: agent.id },
      views: 0,
      meta: { tags: ["cuenta", "seguridad"], title: "Contraseña" },
      associated_articles: [],
      public_url: `http://parley.test/hc/${portal.slug}/articles/${encodeURIComponent("como-cambio-mi-contrasena")}`,
    };
    expect(res.body).toMatchObject(expected);
    expect(res.body.payload).toMatchObject({ ...expected, id: res.body.id });
  });

  it("makes free slugs from long titles (D1 refuses LIKE patterns over 50 bytes)", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const title = "How to configure the single sign-on integration with your identity provider";
    const first = await makeArticle(account.id, admin.token, portal.slug, { title });
    const second = await makeArticle(account.id, admin.token, portal.slug, { title });
    expect(first.slug).toBe(
      "how-to-configure-the-single-sign-on-integration-with-your-identity-provider",
    );
    expect(second.slug).toBe(`${first.slug}-2`);
  });

  it("accepts the status as an integer or a label", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    for (const [sent, label] of [
      [0, "draft"],
      [2, "archived"],
      ["published", "published"],
      ["1", "published"],
    ] as const) {
      const a = await makeArticle(account.id, admin.token, portal.slug, { status: sent });
      expect(a.status).toBe(label);
    }
    const res = await api(`${base(account.id)}/${portal.slug}/articles`, {
      method: "POST",
      token: admin.token,
      body: { title: "x", status: 3 },
    });
    expect(expectError(res, 422).details.map((d) => d.path)).toContain("status");
  });

  it("lets an administrator name another agent as author, not an agent", async () => {
    const { account, admin, agent } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const colleague = await createAgent(account.id);
    const stranger = await createUser();
    const byAdmin = await makeArticle(account.id, admin.token, portal.slug, {
      author_id: colleague.id,
    });
    expect(byAdmin.author_id).toBe(colleague.id);
    expectError(
      await api(`${base(account.id)}/${portal.slug}/articles`, {
        method: "POST",
        token: agent.token,
        body: { title: "x", author_id: colleague.id },
      }),
      403,
    );
    const res = await api(`${base(account.id)}/${portal.slug}/articles`, {
      method: "POST",
      token: admin.token,
      body: { title: "x", author_id: stranger.id },
    });
    expect(expectError(res, 422).details[0]?.path).toBe("author_id");
  });

  it("refuses bad input with 422 and creates nothing", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const other = await makePortal(account.id, admin.token);
    const foreignCat = await makeCategory(account.id, admin.token, other.slug);
    const esCat = await makeCategory(account.id, admin.token, portal.slug, { locale: "es" });
    const cases: [Record<string, unknown>, string][] = [
      [{}, "title"],
      [{ title: "  " }, "title"],
      [{ title: "x", locale: "jp" }, "locale"],
      [{ title: "x", category_id: foreignCat.id }, "category_id"],
      [{ title: "x", category_id: esCat.id, locale: "en" }, "category_id"],
      [{ title: "x", associated_article_id: 987654321 }, "associated_article_id"],
      [{ title: "x", meta: { tags: "not-an-array" } }, "meta.tags"],
      [{ title: "x", slug: "UPPER case" }, "slug"],
    ];
    for (const [body, path] of cases) {
      const res = await api(`${base(account.id)}/${portal.slug}/articles`, {
        method: "POST",
        token: admin.token,
        body,
      });
      expect(expectError(res, 422, "validation_failed").details.map((d) => d.path)).toContain(path);
    }
    const list = await api(`${base(account.id)}/${portal.slug}/articles`, { token: admin.token });
    expect(list.body.payload).toEqual([]);
  });
});

describe("GET /portals/{portal_slug}/articles", () => {
  it("filters by status, locale, category, author and words, with counts", async () => {
    const { account, admin, agent } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const cat = await makeCategory(account.id, admin.token, portal.slug);
    const a = await makeArticle(account.id, agent.token, portal.slug, {
      title: "Reset your password",
      category_id: cat.id,
    });
    const b = await makeArticle(account.id, admin.token, portal.slug, {
      title: "Invoices",
      content: "Download a PDF of every invoice.",
      status: 0,
    });
    const c = await makeArticle(account.id, admin.token, portal.slug, {
      locale: "es",
      title: "Hola",
    });
    const ids = async (q: string) => {
      const res = await api(`${base(account.id)}/${portal.slug}/articles${q}`, {
        token: agent.token,
      });
      expect(res.status).toBe(200);
      return res.body.payload.map((x: { id: number }) => x.id);
    };
    expect(await ids("")).toEqual([a.id, b.id, c.id]);
    expect(await ids("?status=draft")).toEqual([b.id]);
    expect(await ids("?status=1&locale=en")).toEqual([a.id]);
    expect(await ids(`?category_slug=${cat.slug}`)).toEqual([a.id]);
    expect(await ids("?category_slug=nope")).toEqual([]);
    expect(await ids(`?author_id=${agent.id}`)).toEqual([a.id]);
    expect(await ids("?query=pdf")).toEqual([b.id]);
    expect(await ids("?query=passw")).toEqual([a.id]);
    expect(await ids(`?query=${encodeURIComponent('"NEAR( * title:')}`)).toEqual([]);
    const res = await api(`${base(account.id)}/${portal.slug}/articles?status=1`, {
      token: agent.token,
    });
    expect(res.body.meta).toEqual({
      current_page: 1,
      articles_count: 2,
      all_articles_count: 3,
      published_count: 2,
      draft_articles_count: 1,
      archived_articles_count: 0,
      mine_articles_count: 1,
    });
  });
});

describe("articles: update, associate, reorder, delete", () => {
  it("updates fields and links associated articles both ways", async () => {
    const { account, admin, agent } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const en = await makeArticle(account.id, admin.token, portal.slug, { title: "Hello" });
    const es = await makeArticle(account.id, admin.token, portal.slug, {
      title: "Hola",
      locale: "es",
      associated_article_id: en.id,
    });
    const res = await api(`${base(account.id)}/${portal.slug}/articles/${en.id}`, {
      method: "PATCH",
      token: agent.token,
      body: { title: "Hello again", status: "archived" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: "Hello again",
      slug: en.slug,
      status: "archived",
      public_url: null,
    });
    expect(res.body.associated_articles).toEqual([
      { id: es.id, title: "Hola", slug: es.slug, locale: "es", status: "published" },
    ]);
    expectError(
      await api(`${base(account.id)}/${portal.slug}/articles/${en.id}`, {
        method: "PATCH",
        token: agent.token,
        body: { associated_article_id: en.id },
      }),
      422,
    );
  });

  it("reorders and deletes", async () => {
    const { account, admin, agent } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const a = await makeArticle(account.id, admin.token, portal.slug);
    const b = await makeArticle(account.id, admin.token, portal.slug);
    const res = await api(`${base(account.id)}/${portal.slug}/articles/reorder`, {
      method: "POST",
      token: agent.token,
      body: { positions_hash: { [a.id]: 9, [b.id]: 1 } },
    });
    expect(res.status).toBe(200);
    const list = await api(`${base(account.id)}/${portal.slug}/articles`, { token: agent.token });
    expect(list.body.payload.map((x: { id: number }) => x.id)).toEqual([b.id, a.id]);
    const del = await api(`${base(account.id)}/${portal.slug}/articles/${a.id}`, {
      method: "DELETE",
      token: agent.token,
    });
    expect(del.status).toBe(200);
    expectError(
      await api(`${base(account.id)}/${portal.slug}/articles/${a.id}`, { token: agent.token }),
      404,
    );
  });

  it("answers 404 for an article of another portal", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const other = await makePortal(account.id, admin.token);
    const theirs = await makeArticle(account.id, admin.token, other.slug);
    expectError(
      await api(`${base(account.id)}/${portal.slug}/articles/${theirs.id}`, { token: admin.token }),
      404,
    );
  });
});

type World = Awaited<ReturnType<typeof createWorld>>;
const listPath = async (w: World) =>
  `${base(w.account.id)}/${(await makePortal(w.account.id, w.admin.token)).slug}/articles`;
const articlePath = async (w: World) => {
  const portal = await makePortal(w.account.id, w.admin.token);
  const a = await makeArticle(w.account.id, w.admin.token, portal.slug);
  return `${base(w.account.id)}/${portal.slug}/articles/${a.id}`;
};

describeAuthMatrix("GET articles", { method: "GET", path: listPath });
describeAuthMatrix("POST articles", { method: "POST", path: listPath });
describeAuthMatrix("POST articles/reorder", {
  method: "POST",
  path: async (w) => `${await listPath(w)}/reorder`,
});
describeAuthMatrix("GET article", { method: "GET", path: articlePath });
describeAuthMatrix("PATCH article", { method: "PATCH", path: articlePath });
describeAuthMatrix("DELETE article", { method: "DELETE", path: articlePath });
