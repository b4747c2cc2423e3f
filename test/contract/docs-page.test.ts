import { describe, expect, it } from "vitest";
import docsCss from "../../widget/public/api-docs.css?raw";
import docsJs from "../../widget/public/api-docs.js?raw";
import { api } from "../support/http";

/** Every URL a page loads code or styles from: script src, link href, CSS url()/@import. */
const loadedUrls = (html: string) => [
  ...[...html.matchAll(/<script\b[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1] as string),
  ...[...html.matchAll(/<link\b[^>]*\bhref="([^"]*)"/g)].map((m) => m[1] as string),
];

describe("/docs", () => {
  it("loads only same-origin scripts and styles, under a CSP that names no other host", async () => {
    const res = await api<string>("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = res.body;
    const urls = loadedUrls(html);
    expect(urls).toEqual(expect.arrayContaining(["/api-docs.js", "/api-docs.css"]));
    for (const url of urls) {
      // Root-relative on this origin (or a data: icon): never another host, never protocol-relative.
      expect(url, url).toMatch(/^(\/(?!\/)|data:)/);
    }
    // No inline code or styles: every <script> has a src and is empty, no <style>, no style="".
    expect([...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1])).toEqual([
      "",
    ]);
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);

    const csp = res.headers.get("content-security-policy") ?? "";
    const directives = Object.fromEntries(
      csp.split(";").map((d) => {
        const [name = "", ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives["default-src"]).toEqual(["'none'"]);
    expect(directives["script-src"]).toEqual(["'self'"]);
    expect(directives["style-src"]).toEqual(["'self'"]);
    expect(directives["connect-src"]).toEqual(["'self'"]);
    expect(csp).not.toMatch(/https?:|\*|unsafe-|\/\//);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("renders with first-party code that reaches nothing but /openapi.json", () => {
    expect(docsJs).toContain('fetch("/openapi.json")');
    expect(docsJs).not.toMatch(/https?:\/\/|innerHTML|eval\(|import\(/);
    expect(docsCss).not.toMatch(/@import|url\(/);
  });
});
