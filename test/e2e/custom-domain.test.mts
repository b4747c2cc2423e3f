// Issue 20, point 3, end to end: a real `wrangler dev` asks a real (loopback) DNS-over-HTTPS
// resolver for the `_parley-challenge` TXT record; a claimed domain serves the portal only once
// verified. No browser: Host headers are what matters, and fetch cannot set them (node:http can).
import { request } from "node:http";
import { describe, expect, inject, it } from "vitest";
import { ADMIN_TOKEN, accountCall } from "./harness.mts";

const base = inject("parleyBase");
const doh = inject("dohBase");
const call = accountCall(base);

/** GET `path` from Parley as if addressed to `host` (what a custom domain's visitors send). */
function getAs(host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { host, accept: "text/html" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const verify = (slug: string) =>
  fetch(`${base}/api/v1/accounts/1/portals/${slug}/custom_domain/verify`, {
    method: "POST",
    headers: { api_access_token: ADMIN_TOKEN },
  });

describe("custom domain verification over DNS-over-HTTPS", () => {
  it("serves the portal on its domain only after its TXT record is seen", async () => {
    const domain = `help-${Date.now().toString(36)}.acme.example`;
    const slug = `domain-${Date.now().toString(36)}`;
    const portal = await call("POST", "/portals", {
      name: "Acme Domain Help",
      slug,
      custom_domain: domain,
    });
    const challenge = portal.custom_domain_verification;
    expect(challenge).toMatchObject({
      status: "pending",
      record_name: `_parley-challenge.${domain}`,
    });
    expect((await getAs(domain, "/")).body).not.toContain("Acme Domain Help");

    const missing = await verify(slug);
    expect(missing.status).toBe(422);
    expect(JSON.stringify(await missing.json())).toContain("is not verified");

    const put = await fetch(`${doh}/records/${encodeURIComponent(challenge.record_name)}`, {
      method: "PUT",
      body: JSON.stringify([challenge.record_value]),
    });
    expect(put.status).toBe(204);
    const ok = await verify(slug);
    expect(ok.status).toBe(200);
    expect((await ok.json()).custom_domain_verification.status).toBe("verified");

    const home = await getAs(domain, "/");
    expect(home.status).toBe(200);
    expect(home.body).toContain("Acme Domain Help");
    expect((await getAs(domain, "/robots.txt")).body).toContain(
      `Sitemap: https://${domain}/sitemap.xml`,
    );
    expect((await getAs(domain, "/sitemap.xml")).status).toBe(200);
  });
});
