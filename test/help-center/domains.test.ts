import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorld, unique } from "../support/factories";
import { api, expectError } from "../support/http";
import { apiSettled } from "../support/settled";
import { base, fakeDoh, makePortal, page } from "./support";

// DNS is the outside world: every test answers Cloudflare's DoH endpoint (the default) itself.
const txt = new Map<string, string[] | Error>();
let doh: ReturnType<typeof fakeDoh>;
beforeEach(() => {
  doh = fakeDoh(txt, "cloudflare-dns.com");
});
afterEach(() => doh.stop());

const newDomain = () => `${unique("help").toLowerCase()}.example.com`;
const challenge = (domain: string) => `_parley-challenge.${domain}`;

type Verification = {
  status: "pending" | "verified";
  record_type: string;
  record_name: string;
  record_value: string;
  verified_at: number | null;
};
type Portal = {
  slug: string;
  name: string;
  custom_domain: string | null;
  custom_domain_verification: Verification | null;
  public_url: string;
};

/** An account with a portal claiming `domain` (pending). */
async function claimant(domain: string) {
  const world = await createWorld();
  const portal = await makePortal(world.account.id, world.admin.token, { custom_domain: domain });
  return { ...world, portal: portal as unknown as Portal };
}

const portalOf = async (w: Awaited<ReturnType<typeof claimant>>) =>
  (await api(`${base(w.account.id)}/${w.portal.slug}`, { token: w.admin.token })).body as Portal;

const verify = (w: Awaited<ReturnType<typeof claimant>>) =>
  api<Portal>(`${base(w.account.id)}/${w.portal.slug}/custom_domain/verify`, {
    method: "POST",
    token: w.admin.token,
  });

/** What `/` on the host serves: the portal's name, or the service's JSON. */
const homeOf = async (host: string) => (await page("/", { host })).text;

describe("custom_domain refuses the service's own hosts", () => {
  it("answers 422 for PUBLIC_URL's host, loopback names and workers.dev", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    for (const domain of ["chat.parley.test", "app.localhost", "x.workers.dev"]) {
      const res = await api(`${base(account.id)}/${portal.slug}`, {
        method: "PATCH",
        token: admin.token,
        body: { custom_domain: domain },
      });
      const error = expectError(res, 422, "validation_failed");
      expect(error.details.map((d) => d.path)).toEqual(["custom_domain"]);
    }
    for (const domain of ["127.0.0.1", "[::1]", "localhost"]) {
      const res = await api(base(account.id), {
        token: admin.token,
        body: { name: "Hc", custom_domain: domain },
      });
      expectError(res, 422, "validation_failed");
    }
    const after = await api(`${base(account.id)}/${portal.slug}`, { token: admin.token });
    expect(after.body.custom_domain).toBeNull();
  });

  it("without PUBLIC_URL, the host the request came to", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const patch = (PUBLIC_URL: string | undefined) =>
      apiSettled(`${base(account.id)}/${portal.slug}`, {
        method: "PATCH",
        token: admin.token,
        host: "parley.example.org",
        body: { custom_domain: "parley.example.org" },
        env: { PUBLIC_URL },
      });
    const refused = expectError(await patch(undefined), 422, "validation_failed");
    expect(refused.details).toEqual([
      { path: "custom_domain", message: "is this service's own host" },
    ]);
    // With PUBLIC_URL set, that names the service's host; another host is a portal's to claim.
    expect((await patch("https://chat.parley.test")).status).toBe(200);
  });

  it("and RESERVED_DOMAINS: a name exactly, *.name for every name under it", async () => {
    const { account, admin } = await createWorld();
    const portal = await makePortal(account.id, admin.token);
    const env = { RESERVED_DOMAINS: " status.example.net , *.corp.example.net" };
    const patch = (custom_domain: string) =>
      apiSettled(`${base(account.id)}/${portal.slug}`, {
        method: "PATCH",
        token: admin.token,
        body: { custom_domain },
        env,
      });
    expectError(await patch("status.example.net"), 422, "validation_failed");
    expectError(await patch("help.corp.example.net"), 422, "validation_failed");
    expect((await patch("other.example.net")).status).toBe(200);
  });
});

describe("a custom domain goes live only once verified", () => {
  it("a new claim is pending with a token to publish, and is not served", async () => {
    const domain = newDomain();
    const w = await claimant(domain);
    expect(w.portal.custom_domain).toBe(domain);
    expect(w.portal.custom_domain_verification).toEqual({
      status: "pending",
      record_type: "TXT",
      record_name: challenge(domain),
      record_value: expect.stringMatching(/^\w{20,}$/),
      verified_at: null,
    });
    expect(w.portal.public_url).toBe(`http://parley.test/hc/${w.portal.slug}`);
    for (const path of ["/", "/sitemap.xml", "/en"]) {
      const res = await page(path, { host: domain });
      expect(res.text).not.toContain(w.portal.name);
      expect(res.text).not.toContain(`/hc/${w.portal.slug}`);
    }
    // The service's own robots.txt, not the portal's.
    const robots = (await page("/robots.txt", { host: domain })).text;
    expect(robots).toContain("Disallow: /api/");
    expect(robots).not.toContain(`https://${domain}/sitemap.xml`);
    // Still read on the service's own host meanwhile, and listed in its robots.txt.
    expect((await page(`/hc/${w.portal.slug}`)).status).toBe(200);
    expect((await page("/robots.txt")).text).toContain(`/hc/${w.portal.slug}/sitemap.xml`);
  });

  it("verifies by the TXT record, then serves /, robots.txt, sitemap.xml and pages there", async () => {
    const domain = newDomain();
    const w = await claimant(domain);
    const token = w.portal.custom_domain_verification?.record_value ?? "";
    txt.set(challenge(domain), ["v=spf1 -all", token]);
    const res = await verify(w);
    expect(res.status).toBe(200);
    expect(res.body.custom_domain_verification?.status).toBe("verified");
    expect(res.body.custom_domain_verification?.verified_at).toEqual(expect.any(Number));
    expect(res.body.public_url).toBe(`https://${domain}`);
    expect(doh.lookups).toContain(`https://cloudflare-dns.com/dns-query ${challenge(domain)} TXT`);
    expect(await homeOf(domain)).toContain(w.portal.name);
    expect((await page("/robots.txt", { host: domain })).text).toContain(
      `Sitemap: https://${domain}/sitemap.xml`,
    );
    expect((await page("/sitemap.xml", { host: domain })).status).toBe(200);
    // The service's robots.txt no longer lists it: it is read on its own domain now.
    expect((await page("/robots.txt")).text).not.toContain(`/hc/${w.portal.slug}/`);
  });

  it("refuses with 422 and changes nothing: no domain, no record, the wrong token, no resolver", async () => {
    const w = await claimant(newDomain());
    const domain = w.portal.custom_domain ?? "";
    const message = async () => expectError(await verify(w), 422, "validation_failed").details;
    expect(await message()).toEqual([
      {
        path: "custom_domain",
        message: expect.stringContaining(`no TXT record ${challenge(domain)}`),
      },
    ]);
    txt.set(challenge(domain), ["someone-elses-token"]);
    expect((await message())[0]?.message).toContain("is not verified");
    txt.set(challenge(domain), new Error("down"));
    expect((await message())[0]?.message).toContain("could not be checked");
    expect((await portalOf(w)).custom_domain_verification?.status).toBe("pending");
    expect(await homeOf(domain)).not.toContain(w.portal.name);

    const bare = await makePortal(w.account.id, w.admin.token);
    const none = await api(`${base(w.account.id)}/${bare.slug}/custom_domain/verify`, {
      method: "POST",
      token: w.admin.token,
    });
    expect(expectError(none, 422).details[0]?.message).toContain("is not set");
    const agent = await api(`${base(w.account.id)}/${w.portal.slug}/custom_domain/verify`, {
      method: "POST",
      token: w.agent.token,
    });
    expectError(agent, 403);
  });

  it("asks the resolver DOH_RESOLVER_URL names", async () => {
    const domain = newDomain();
    const w = await claimant(domain);
    const local = fakeDoh(
      new Map([[challenge(domain), [w.portal.custom_domain_verification?.record_value ?? ""]]]),
      "doh.test",
    );
    try {
      const res = await apiSettled<Portal>(
        `${base(w.account.id)}/${w.portal.slug}/custom_domain/verify`,
        {
          method: "POST",
          token: w.admin.token,
          env: { DOH_RESOLVER_URL: "https://doh.test/resolve" },
        },
      );
      expect(res.status).toBe(200);
      expect(local.lookups).toEqual([`https://doh.test/resolve ${challenge(domain)} TXT`]);
    } finally {
      local.stop();
    }
  });

  it("a new domain is a new pending claim with a new token; clearing it clears the claim", async () => {
    const domain = newDomain();
    const w = await claimant(domain);
    txt.set(challenge(domain), [w.portal.custom_domain_verification?.record_value ?? ""]);
    expect((await verify(w)).status).toBe(200);
    const patch = (custom_domain: string | null) =>
      api<Portal>(`${base(w.account.id)}/${w.portal.slug}`, {
        method: "PATCH",
        token: w.admin.token,
        body: { custom_domain },
      });
    // The same domain again: still verified.
    expect((await patch(domain)).body.custom_domain_verification?.status).toBe("verified");
    const moved = (await patch(newDomain())).body;
    expect(moved.custom_domain_verification?.status).toBe("pending");
    expect(moved.custom_domain_verification?.record_value).not.toBe(
      w.portal.custom_domain_verification?.record_value,
    );
    expect(await homeOf(domain)).not.toContain(w.portal.name);
    const cleared = (await patch(null)).body;
    expect(cleared.custom_domain).toBeNull();
    expect(cleared.custom_domain_verification).toBeNull();
  });
});

describe("squatting", () => {
  it("a pending claim never blocks another account, and only the token in DNS verifies", async () => {
    const domain = newDomain();
    const squatter = await claimant(domain);
    const owner = await claimant(domain);
    expect(owner.portal.custom_domain).toBe(domain);
    txt.set(challenge(domain), [owner.portal.custom_domain_verification?.record_value ?? ""]);
    expectError(await verify(squatter), 422, "validation_failed");
    expect((await verify(owner)).status).toBe(200);
    expect(await homeOf(domain)).toContain(owner.portal.name);
    expect((await portalOf(squatter)).custom_domain_verification?.status).toBe("pending");
  });

  it("the latest verification wins: the earlier holder goes back to pending", async () => {
    const domain = newDomain();
    const first = await claimant(domain);
    const second = await claimant(domain);
    txt.set(challenge(domain), [first.portal.custom_domain_verification?.record_value ?? ""]);
    expect((await verify(first)).status).toBe(200);
    expect(await homeOf(domain)).toContain(first.portal.name);
    // The domain changes hands: its DNS now names the second account's token.
    txt.set(challenge(domain), [second.portal.custom_domain_verification?.record_value ?? ""]);
    expect((await verify(second)).body.custom_domain_verification?.status).toBe("verified");
    expect(await homeOf(domain)).toContain(second.portal.name);
    const loser = await portalOf(first);
    expect(loser.custom_domain).toBe(domain);
    expect(loser.custom_domain_verification?.status).toBe("pending");
    expect(loser.public_url).toBe(`http://parley.test/hc/${first.portal.slug}`);
  });
});
