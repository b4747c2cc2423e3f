// Issue 24: the help center's own words exist in every language it offers (Chatwoot's help
// center languages beyond the widget's), and a page in one of them shows none of English's.
import { describe, expect, it } from "vitest";
import { HELP_CENTER_LOCALES, stringsFor } from "../../worker/modules/help-center/render/strings";
import { createWorld } from "../support/factories";
import { makeArticle, makeCategory, makePortal, page } from "./support";

const en = stringsFor("en");
const KEYS = Object.keys(en) as (keyof typeof en)[];

/** A set's value as text: functions are called with a count and a query (noMatch: the query). */
const text = (key: string, value: unknown, n = 3) =>
  typeof value !== "function"
    ? value
    : key === "noMatch"
      ? (value as (q: string) => string)("zebra")
      : (value as (n: number, q: string) => string)(n, "zebra");

describe("the help center's words in every offered language", () => {
  it("offers at least Chatwoot's most used help-center languages", () => {
    for (const code of ["en", "fr", "es", "ar", "de", "pt", "pt_BR", "it", "nl", "ja", "zh_CN"]) {
      expect(HELP_CENTER_LOCALES).toContain(code);
    }
  });

  it.each(HELP_CENTER_LOCALES)("%s has every string, translated", (locale) => {
    const set = stringsFor(locale);
    expect(Object.keys(set).sort()).toEqual([...KEYS].sort());
    let same = 0;
    for (const key of KEYS) {
      for (const n of [1, 3, 12]) {
        const value = text(key, set[key], n);
        expect(typeof value, `${locale}.${key}`).toBe("string");
        expect((value as string).trim(), `${locale}.${key}`).not.toBe("");
        if (["articles", "results"].includes(key)) {
          expect(value, `${locale}.${key}(${n})`).toContain(String(n));
        }
        if (["results", "noMatch"].includes(key)) {
          expect(value, `${locale}.${key}`).toContain("zebra");
        }
      }
      if (text(key, set[key]) === text(key, en[key])) {
        same++;
      }
    }
    // A word may be the same as in English ("No" in Spanish), a whole set may not.
    expect(same, `${locale}: strings left in English`).toBeLessThanOrEqual(
      locale === "en" ? KEYS.length : 2,
    );
  });

  it("reads regional and hyphenated codes as their set, else the base language's", () => {
    expect(stringsFor("pt_BR").search).toBe("Buscar artigos");
    expect(stringsFor("pt-BR").search).toBe("Buscar artigos");
    expect(stringsFor("pt-PT").search).toBe("Pesquisar artigos");
    expect(stringsFor("zh").search).toBe(stringsFor("zh_CN").search);
    expect(stringsFor("zh-TW").search).toBe("搜尋文章");
    expect(stringsFor("ru").articles(1)).toBe("1 статья");
    expect(stringsFor("ru").articles(3)).toBe("3 статьи");
    expect(stringsFor("ru").articles(11)).toBe("11 статей");
    expect(stringsFor("ru").articles(21)).toBe("21 статья");
    expect(stringsFor("xx").search).toBe(en.search);
  });

  it("serves each page in its language, with no English chrome left", async () => {
    const locales = ["en", "pt_BR", "ja", "zh_CN", "nl"];
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token, {
      config: { allowed_locales: locales, default_locale: "en" },
    });
    const category = await makeCategory(account.id, admin.token, portal.slug, { name: "Billing" });
    await makeArticle(account.id, admin.token, portal.slug, {
      title: "Invoices",
      category_id: category.id,
    });
    for (const locale of locales.slice(1)) {
      await makeArticle(account.id, admin.token, portal.slug, {
        title: `Article ${locale}`,
        locale,
      });
    }
    for (const locale of locales.slice(1)) {
      const s = stringsFor(locale);
      const home = await page(`/hc/${portal.slug}/${locale}`);
      expect(home.status, locale).toBe(200);
      expect(home.text, locale).toContain(`placeholder="${s.search}"`);
      expect(home.text, locale).toContain(s.popular);
      for (const english of [en.search, en.popular, en.searchButton]) {
        expect(home.text, `${locale}: ${english}`).not.toContain(`>${english}<`);
      }
      expect(home.text, locale).not.toContain(`placeholder="${en.search}"`);
    }
  });
});
