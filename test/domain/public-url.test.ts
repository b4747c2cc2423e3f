import { describe, expect, it } from "vitest";
import { addressProblem, publicUrlProblem } from "../../worker/lib/public-url";
import { checkResolvedHost } from "../../worker/lib/resolve-host";
import { type DnsAnswer, dohResponse } from "../support/factories-webhooks";

const PRIVATE = "must not point at a private, loopback or link-local address";
const NOT_URL = "must be an absolute http(s) URL";

describe("publicUrlProblem", () => {
  it("accepts public http(s) hosts, names and addresses", () => {
    for (const url of [
      "https://example.com/hook",
      "http://hooks.example.org:8080/a?b=c",
      "https://93.184.216.34/x",
      "https://[2606:4700::1111]/x",
      "https://[::ffff:93.184.216.34]/x",
      "https://172.32.0.1/x",
      "https://100.128.0.1/x",
    ]) {
      expect(publicUrlProblem(url, false), url).toBeNull();
    }
  });

  it("refuses what is not an absolute http(s) URL", () => {
    for (const url of [
      "",
      "example.com/x",
      "/x",
      "ftp://example.com",
      "javascript:alert(1)",
      "file:///etc/passwd",
    ]) {
      expect(publicUrlProblem(url, false), url).toBe(NOT_URL);
    }
  });

  it("refuses private, loopback, link-local and reserved addresses in every spelling", () => {
    for (const url of [
      "http://127.0.0.1/",
      "http://127.1/",
      "http://2130706433/",
      "http://0x7f.0.0.1/",
      "http://0.0.0.0/",
      "http://10.0.0.1/",
      "http://100.64.1.1/",
      "http://169.254.169.254/",
      "http://172.31.255.255/",
      "http://192.168.0.1/",
      "http://224.0.0.1/",
      "http://255.255.255.255/",
      "http://[::1]/",
      "http://[::]/",
      "http://[0:0:0:0:0:0:0:1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:192.168.1.1]/",
      "http://[64:ff9b::a00:1]/",
      "http://[fc00::1]/",
      "http://[fe80::1]/",
      "http://[ff02::1]/",
      "http://localhost/",
      "http://LOCALHOST./",
      "http://api.localhost/",
      "http://nas.local/",
      "http://db.internal/",
      "http://router/",
    ]) {
      expect(publicUrlProblem(url, false), url).toBe(PRIVATE);
    }
  });

  it("reads IPv4 back out of every IPv6 form that embeds or translates it", () => {
    for (const url of [
      "http://[::ffff:0:127.0.0.1]/", // IPv4-translated (parsed to ::ffff:0:7f00:1)
      "http://[::ffff:0:93.184.216.34]/", // translated forms are refused whatever they wrap
      "http://[::ffff:7f00:1]/",
      "http://[0:0:0:0:0:ffff:10.1.2.3]/",
      "http://[::127.0.0.1]/", // IPv4-compatible (deprecated): refused whatever it wraps
      "http://[::93.184.216.34]/",
      "http://[::0.0.0.0]/",
      "http://[64:ff9b::127.0.0.1]/", // NAT64
      "http://[64:ff9b::c0a8:101]/",
      "http://[64:ff9b:1::8.8.8.8]/", // NAT64 local use
      "http://[2002:7f00:1::]/", // 6to4
      "http://[2002:5db8:d822::1]/",
      "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", // Teredo
      "http://[2001:db8::1]/",
      "http://[100::1]/", // discard-only
      "http://[fe80::1]/",
      "http://[febf::1]/",
      "http://[fd12:3456::1]/",
      "http://[ff0e::1]/",
    ]) {
      expect(publicUrlProblem(url, false), url).toBe(PRIVATE);
    }
    for (const url of ["https://[64:ff9b::5db8:d822]/x", "https://[2001:4860:4860::8888]/x"]) {
      expect(publicUrlProblem(url, false), url).toBeNull();
    }
  });

  it("refuses decimal, octal, hex and other odd spellings of IPv4 (workerd's URL parser normalises them)", () => {
    for (const url of [
      "http://2130706433/",
      "http://0x7f.1/",
      "http://0177.0.0.1/",
      "http://0x7f000001/",
      "http://017700000001/",
      "http://127.0.0.1./",
      "http://%31%32%37.0.0.1/",
      "http://0xa9.0xfe.0xa9.0xfe/",
      "http://0300.0250.1.1/",
    ]) {
      expect(new URL(url).hostname, url).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(publicUrlProblem(url, false), url).toBe(PRIVATE);
    }
  });

  it("refuses credentials in the URL", () => {
    for (const url of [
      "https://user:pass@example.com/hook",
      "https://user@example.com/hook",
      "https://:pass@example.com/hook",
    ]) {
      expect(publicUrlProblem(url, false), url).toBe(
        "must not contain credentials (user:password@)",
      );
    }
  });

  it("lets local development reach loopback only", () => {
    for (const url of ["http://127.0.0.1:4000/", "http://localhost:4000/", "http://[::1]:4000/"]) {
      expect(publicUrlProblem(url, true), url).toBeNull();
    }
    for (const url of ["http://10.0.0.1/", "http://192.168.1.1/", "http://169.254.169.254/"]) {
      expect(publicUrlProblem(url, true), url).toBe(PRIVATE);
    }
  });
});

describe("addressProblem", () => {
  it("judges resolved A and AAAA answers by the same rule", () => {
    for (const address of ["93.184.216.34", "2606:4700::1111", "::ffff:93.184.216.34"]) {
      expect(addressProblem(address, false), address).toBeNull();
    }
    for (const address of ["127.0.0.1", "10.0.0.1", "::1", "::ffff:7f00:1", "fd00::1", "junk"]) {
      expect(addressProblem(address, false), address).toBe(PRIVATE);
    }
    expect(addressProblem("127.0.0.1", true)).toBeNull();
    expect(addressProblem("10.0.0.1", true)).toBe(PRIVATE);
  });
});

describe("checkResolvedHost", () => {
  const resolver = (dns: DnsAnswer) => {
    const asked: string[] = [];
    const outbound = async (request: Request) => {
      asked.push(request.url);
      expect(request.headers.get("accept")).toBe("application/dns-json");
      const res = dohResponse(request, dns);
      if (!res) {
        throw new Error(`not a lookup: ${request.url}`);
      }
      return res;
    };
    return { outbound, asked };
  };

  it("asks cloudflare-dns.com for A and AAAA of the name", async () => {
    const r = resolver((_n, type) => (type === "A" ? ["93.184.216.34"] : ["2606:4700::1111"]));
    expect(await checkResolvedHost(r.outbound, "https://hooks.example.com./x", false)).toEqual({
      kind: "ok",
    });
    expect(r.asked.sort()).toEqual([
      "https://cloudflare-dns.com/dns-query?name=hooks.example.com&type=A",
      "https://cloudflare-dns.com/dns-query?name=hooks.example.com&type=AAAA",
    ]);
  });

  it("refuses private answers; a failing resolver or no address leaves it unresolved", async () => {
    const local = resolver((_n, type) => (type === "A" ? ["127.0.0.1"] : []));
    expect(await checkResolvedHost(local.outbound, "http://127.0.0.1.nip.io/", false)).toEqual({
      kind: "refused",
      problem: `host 127.0.0.1.nip.io resolves to 127.0.0.1: ${PRIVATE}`,
    });
    const down = resolver(() => new TypeError("unreachable"));
    expect(await checkResolvedHost(down.outbound, "https://a.example.com/", false)).toEqual({
      kind: "unresolved",
      error: "dns lookup of a.example.com failed: unreachable",
    });
    const http500 = async () => new Response("no", { status: 502 });
    expect(await checkResolvedHost(http500, "https://a.example.com/", false)).toMatchObject({
      kind: "unresolved",
      error: "dns lookup of a.example.com failed: resolver answered HTTP 502",
    });
    const servfail = async () => Response.json({ Status: 2 });
    expect(await checkResolvedHost(servfail, "https://a.example.com/", false)).toMatchObject({
      kind: "unresolved",
      error: "dns lookup of a.example.com failed: resolver answered DNS status 2",
    });
    const none = resolver(() => []);
    expect(await checkResolvedHost(none.outbound, "https://a.example.com/", false)).toEqual({
      kind: "unresolved",
      error: "dns lookup of a.example.com found no address",
    });
  });

  it("looks up no IP literal, nor a loopback name while loopback receivers are allowed", async () => {
    const r = resolver(() => new Error("must not be asked"));
    for (const url of [
      "https://93.184.216.34/",
      "https://[2606:4700::1111]/",
      "http://127.0.0.1:4000/",
    ]) {
      expect(await checkResolvedHost(r.outbound, url, false), url).toEqual({ kind: "ok" });
    }
    expect(await checkResolvedHost(r.outbound, "http://localhost:4000/", true)).toEqual({
      kind: "ok",
    });
    expect(r.asked).toEqual([]);
    // A name resolving to loopback is admitted only while loopback is.
    const lo = resolver((_n, type) => (type === "A" ? ["127.0.0.1"] : []));
    expect(await checkResolvedHost(lo.outbound, "http://dev.example.com/", true)).toEqual({
      kind: "ok",
    });
  });
});
