import { describe, expect, it } from "vitest";
import { api } from "../support/http";

describe("/app (the agents' app)", () => {
  it("answers every deep link with the app's page under a strict CSP", async () => {
    for (const path of ["/app", "/app/login", "/app/accounts/1/conversations/7"]) {
      const res = await api<string>(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.body).toContain('<div id="app">');
      // Its bundles are this origin's, named by content hash; nothing inline.
      expect(res.body).toMatch(
        /<script type="module" crossorigin src="\/app\/assets\/[^"]+\.js"><\/script>/,
      );
      expect(res.body).not.toMatch(/<script\b[^>]*>[^<]+<\/script>|<style\b|\sstyle=|\son[a-z]+=/i);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe/);
      // Schemes and hosts only where dashboard apps are framed (docs/agent-tools.md): every
      // other directive stays on this origin.
      const directives = csp.split(/;\s*/);
      expect(directives.filter((d) => /https?:/.test(d))).toEqual([
        "frame-src https: http://localhost:* http://127.0.0.1:*",
      ]);
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });

  it("leaves the mailed-link forms to their own routes", async () => {
    expect((await api("/app/auth/unknown")).status).toBe(404);
  });
});
