import { describe, expect, it } from "vitest";
import { searchWords } from "../../worker/modules/help-center/queries.search";
import { safeUrl } from "../../worker/modules/help-center/render/escape";
import { renderMarkdown } from "../../worker/modules/help-center/render/markdown";
import { sanitizeHtml } from "../../worker/modules/help-center/render/sanitize";
import { firstFreeSlug, slugify } from "../../worker/modules/help-center/slug";

const md = (s: string) => renderMarkdown(s).html;

describe("markdown", () => {
  it("renders CommonMark's common blocks and inlines", () => {
    expect(md("# Title\n\nSome *em*, **strong**, `code` and ~~gone~~.")).toBe(
      '<h1 id="title">Title</h1>\n<p>Some <em>em</em>, <strong>strong</strong>, <code>code</code> and <del>gone</del>.</p>',
    );
    expect(md("- a\n- b\n  - nested\n- c")).toBe(
      "<ul><li>a</li>\n<li>b\n<ul><li>nested</li></ul></li>\n<li>c</li></ul>",
    );
    expect(md("3. three\n4. four")).toBe('<ol start="3"><li>three</li>\n<li>four</li></ol>');
    expect(md("```js\nif (a < b) {}\n```")).toBe(
      '<pre><code class="language-js">if (a &lt; b) {}</code></pre>',
    );
    expect(md("> quoted\n> more")).toBe("<blockquote><p>quoted\nmore</p></blockquote>");
    expect(md("---")).toBe("<hr>");
    expect(md("Setext\n===")).toBe('<h1 id="setext">Setext</h1>');
    expect(md("| a | b |\n|:--|--:|\n| 1 | 2 |")).toBe(
      '<table><thead><tr><th class="a-left">a</th><th class="a-right">b</th></tr></thead><tbody><tr><td class="a-left">1</td><td class="a-right">2</td></tr></tbody></table>',
    );
  });

  it("writes links, external ones with rel, and lazy images with known dimensions", () => {
    expect(md("[docs](/hc/x) and [ext](https://example.com)")).toBe(
      '<p><a href="/hc/x">docs</a> and <a href="https://example.com" rel="noopener noreferrer nofollow">ext</a></p>',
    );
    expect(md("![a cat](https://img.example/cat.png =320x200)")).toBe(
      '<p><img src="https://img.example/cat.png" alt="a cat" width="320" height="200" loading="lazy" decoding="async"></p>',
    );
    expect(md("see https://example.com/a?b=1&c=2.")).toContain(
      'href="https://example.com/a?b=1&amp;c=2"',
    );
  });

  it("shows raw HTML as text and refuses script URLs", () => {
    expect(md("<script>alert(1)</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    expect(md("[x](javascript:alert(1))")).not.toContain("href");
    expect(md("[x](JaVa\tScRiPt:alert(1))")).not.toContain("href");
    expect(md("![x](data:image/svg+xml;base64,PHN2Zz4=)")).not.toContain("<img");
    expect(md('[x](https://a.example "t\\" onmouseover=\\"alert(1))')).not.toMatch(
      /<[^>]* onmouseover=/,
    );
  });

  it("gives headings unique ids for the table of contents", () => {
    const { headings } = renderMarkdown("## Setup\n\n## Setup\n\n### Ünïcode ✓");
    expect(headings.map((h) => h.id)).toEqual(["setup", "setup-1", "ünïcode"]);
  });
});

describe("safeUrl", () => {
  it("allows http(s), mailto and relative URLs only", () => {
    expect(safeUrl("https://a.example/x")).toBe("https://a.example/x");
    expect(safeUrl("mailto:a@b.example")).toBe("mailto:a@b.example");
    expect(safeUrl("/relative#h")).toBe("/relative#h");
    for (const bad of [
      "javascript:x",
      " JAVASCRIPT:x",
      "java\u0000script:x",
      "data:text/html,x",
      "vbscript:x",
      "file:///etc",
    ]) {
      expect(safeUrl(bad), bad).toBeNull();
    }
  });
});

describe("sanitizeHtml", () => {
  it("keeps allowed markup and strips scripts, handlers and bad URLs", async () => {
    const out = await sanitizeHtml(
      '<p onclick="x()">hi<script>alert(1)</script><img src="javascript:alert(1)" onerror="alert(1)"><a href="https://e.example" target="_blank">l</a><iframe src="https://e.example"></iframe><b>bold</b><!-- c --></p>',
    );
    expect(out).toBe(
      '<p>hi<img loading="lazy" decoding="async"><a href="https://e.example" rel="noopener noreferrer nofollow">l</a>bold</p>',
    );
  });

  it("makes code blocks and tables (which scroll sideways) keyboard-focusable, only them", async () => {
    const out = await sanitizeHtml(
      '<pre tabindex="-1"><code>x</code></pre><table><tr><td>1</td></tr></table><p tabindex="0">p</p>',
    );
    expect(out).toBe(
      '<pre tabindex="0"><code>x</code></pre><table tabindex="0"><tr><td>1</td></tr></table><p>p</p>',
    );
  });
});

describe("slugs and search words", () => {
  it("makes URL-safe slugs in any script", () => {
    expect(slugify("Hello, World!", "x")).toBe("hello-world");
    expect(slugify("Crème brûlée", "x")).toBe("creme-brulee");
    expect(slugify("日本語 ガイド", "x")).toBe("日本語-ガイド");
    expect(slugify("हिन्दी सहायता", "x")).toBe("हिन्दी-सहायता");
    expect(slugify("!!!", "article")).toBe("article");
    expect(firstFreeSlug("a", new Set(["a", "a-2"]))).toBe("a-3");
  });

  it("reduces any query to plain words", () => {
    expect(searchWords('"NEAR(pass* OR title:x)"^')).toEqual(["NEAR", "pass", "OR", "title", "x"]);
    expect(searchWords("")).toEqual([]);
  });
});
