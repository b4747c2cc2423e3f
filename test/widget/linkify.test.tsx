import { describe, expect, it } from "vitest";
import { linkify, safeUrl } from "../../widget/src/app/lib/linkify";

describe("linkify", () => {
  it("turns URLs, www. addresses and emails into links, leaving the rest as text", () => {
    expect(
      linkify("See https://example.com/a?b=1, or www.parley.dev. Mail ann@example.org!"),
    ).toEqual([
      { text: "See " },
      { text: "https://example.com/a?b=1", href: "https://example.com/a?b=1" },
      { text: ", or " },
      { text: "www.parley.dev", href: "https://www.parley.dev" },
      { text: ". Mail " },
      { text: "ann@example.org", href: "mailto:ann@example.org" },
      { text: "!" },
    ]);
  });

  it("never links other schemes and never produces markup", () => {
    const text = `javascript:alert(1) <a href="x">y</a> data:text/html,<script>`;
    expect(linkify(text)).toEqual([{ text }]);
  });

  it("keeps a link's closing parenthesis and quotes outside the link", () => {
    expect(linkify("(https://example.com)")).toEqual([
      { text: "(" },
      { text: "https://example.com", href: "https://example.com" },
      { text: ")" },
    ]);
  });

  it("lets only web URLs through safeUrl", () => {
    expect(safeUrl("https://cdn.example/a.png")).toBe("https://cdn.example/a.png");
    expect(safeUrl("javascript:alert(1)")).toBeUndefined();
    expect(safeUrl("data:image/png;base64,AA")).toBeUndefined();
    expect(safeUrl("")).toBeUndefined();
  });
});
