import { describe, expect, it } from "vitest";

/** The markdown under check, as text: the README and every guide in docs/. */
const docs = import.meta.glob<string>(["/README.md", "/docs/**/*.md"], {
  query: "?raw",
  import: "default",
  eager: true,
});

/** The files a link may point at (a lazy glob: only the names are used, nothing is loaded). */
const files = Object.keys(
  import.meta.glob([
    "/*.{json,md,toml,ts}",
    "/{dashboard,docs,migrations,scripts,test,widget,worker}/**/*",
    "!/widget/dist/**",
    "!/test/e2e/screenshots/**",
  ]),
).map((f) => f.slice(1));

/** Every file, and every folder above one. */
const targets = new Set(
  files.flatMap((f) => f.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"))),
);

/** Code blocks and spans hold examples, not links. */
const withoutCode = (markdown: string) =>
  markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");

const linksOf = (markdown: string) =>
  [...withoutCode(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1] ?? "",
  );

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const count = new Map<string, number>();
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (text ?? "")
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = count.get(slug) ?? 0;
    count.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** `target` relative to the folder of `from`, or null when it climbs out of the repository. */
function resolve(from: string, target: string): string | null {
  const parts = from.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "..") {
      if (parts.length === 0) {
        return null;
      }
      parts.pop();
    } else if (part !== "." && part !== "") {
      parts.push(part);
    }
  }
  return parts.join("/");
}

const PRIVATE_HOST =
  /^(localhost|.*\.(localhost|local|test|internal|invalid)|127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|0\.0\.0\.0|\[::1?\])$/i;

/** Why `link` in `file` is broken, or null when it reaches something. */
function problemOf(file: string, link: string): string | null {
  if (/^[a-z][a-z\d+.-]*:/i.test(link)) {
    if (!/^https?:\/\//i.test(link)) {
      return "only http(s) links may leave the repository";
    }
    return PRIVATE_HOST.test(new URL(link).hostname) ? "not a public web site" : null;
  }
  const [path = "", anchor] = link.split("#");
  const target = path === "" ? file : resolve(file, decodeURI(path));
  if (target === null) {
    return "leaves the repository: link a public web page, or name the document in prose";
  }
  if (!targets.has(target)) {
    return "no such file in the repository";
  }
  if (anchor && target.endsWith(".md")) {
    const text = docs[`/${target}`];
    if (text !== undefined && !anchorsOf(text).has(anchor)) {
      return `no heading #${anchor} in ${target}`;
    }
  }
  return null;
}

describe("links in README.md and docs/", () => {
  it("finds the markdown and the repository's files", () => {
    expect(Object.keys(docs)).toContain("/README.md");
    expect(targets.has("worker/index.ts")).toBe(true);
    expect(linksOf(docs["/README.md"] ?? "").length).toBeGreaterThan(0);
  });

  it("point at public web sites or at files of this repository", () => {
    const broken = Object.entries(docs).flatMap(([name, text]) =>
      linksOf(text).flatMap((link) => {
        const problem = problemOf(name.slice(1), link);
        return problem ? [`${name.slice(1)}: (${link}) ${problem}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });
});
