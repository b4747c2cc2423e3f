import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker";
import { demoFacts } from "../../worker/lib/demo";
import { makePortal } from "../help-center/support";
import { createWorld } from "../support/factories";
import { api } from "../support/http";

/** GET / on the Worker with the given Accept and (optionally) npm start's PARLEY_DEMO. */
async function door(accept: string, opts: { demo?: string; host?: string } = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://${opts.host ?? "127.0.0.1:8787"}/`, { headers: { accept } }),
    { ...env, ...(opts.demo ? { PARLEY_DEMO: opts.demo } : {}) },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { res, text: await res.text() };
}

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("GET / (the front door)", () => {
  it("keeps the JSON for API clients, and says it varies by Accept", async () => {
    for (const accept of ["*/*", "application/json"]) {
      const { res, text } = await door(accept);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.headers.get("vary")).toContain("Accept");
      expect(JSON.parse(text)).toEqual({
        name: "parley",
        version: env.SERVICE_VERSION ?? null,
        docs: "/docs",
        openapi: "/openapi.json",
        app: "/app",
      });
    }
    expect((await api("/")).body.name).toBe("parley");
  });

  it("answers a browser with a page linking the app, the demo, the docs and the OpenAPI file", async () => {
    const { res, text } = await door(BROWSER);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    for (const href of ["/app", "/demo", "/docs", "/openapi.json", "/parley-icon.svg"]) {
      expect(text).toContain(`href="${href}"`);
    }
    expect(text).toContain('<link rel="icon" href="/parley-icon.svg"');
    expect(text).toContain("/hc/{portal_slug}");
    // No script of any kind, nothing from another host, and no demo facts without the demo.
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
    expect(text).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);
    expect(text).not.toContain("This is the local demo");
    expect(text).not.toMatch(/\bnull\b|\bundefined\b/);
  });

  it("shows the local demo's tokens, widget link and help centers to a loopback visitor only", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token, { name: "Demo <Help>" });
    const demo = `account=${account.id}&admin=AdminTok123&agent=AgentTok456&widget=Wid789`;
    const { text } = await door(BROWSER, { demo });
    expect(text).toContain("This is the local demo");
    expect(text).toContain("AdminTok123");
    expect(text).toContain("AgentTok456");
    expect(text).toContain('href="/demo?inbox=Wid789"');
    expect(text).toContain(`href="/hc/${portal.slug}"`);
    // The portal's name is text, never markup.
    expect(text).toContain("Demo &lt;Help&gt;");
    expect(text).toContain(
      `curl -H 'api_access_token: AdminTok123' http://127.0.0.1:8787/api/v1/accounts/${account.id}/conversations`,
    );
    // The same server reached by another name shows no token.
    const remote = await door(BROWSER, { demo, host: "chat.example.com" });
    expect(remote.text).not.toContain("AdminTok123");
  });
});

describe("demoFacts", () => {
  it("needs the variable, a loopback host and well-formed values", () => {
    const raw = "account=1&admin=a1&agent=b2&widget=w3&api_inbox=i4";
    expect(demoFacts(raw, "http://localhost:8787/")).toEqual({
      account: "1",
      admin: "a1",
      agent: "b2",
      widget: "w3",
      apiInbox: "i4",
      platform: null,
    });
    expect(demoFacts(undefined, "http://127.0.0.1/")).toBeNull();
    expect(demoFacts(raw, "https://parley.example/")).toBeNull();
    expect(demoFacts("account=1&admin=a<b&agent=c", "http://127.0.0.1/")).toBeNull();
    expect(demoFacts("account=1&admin=a&agent=c&widget=<x>", "http://[::1]/")?.widget).toBeNull();
  });
});
