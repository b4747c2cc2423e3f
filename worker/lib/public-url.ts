/**
 * Where the service may POST events: an absolute http(s) URL without credentials whose host is
 * not a private, loopback, link-local or otherwise non-public address, in any spelling (the URL
 * parser turns 2130706433, 0x7f.1 and 0177.0.0.1 into 127.0.0.1 and IPv6 into hex groups, so
 * IPv4 embedded in IPv6 is read back out of the groups). Names that only mean something on a local
 * network (localhost, *.local, *.internal, single labels) are refused here; other names are
 * resolved before each send (`resolvedAddressProblem`, lib/resolve-host.ts).
 * `allowLoopback` (PARLEY_ALLOW_LOOPBACK_WEBHOOKS=1, local development) admits loopback only.
 */
export function publicUrlProblem(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute http(s) URL";
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
    return "must be an absolute http(s) URL";
  }
  if (url.username !== "" || url.password !== "") {
    return "must not contain credentials (user:password@)";
  }
  const scope = hostScope(url.hostname.toLowerCase());
  return scopeProblem(scope, allowLoopback);
}

export const PRIVATE_PROBLEM = "must not point at a private, loopback or link-local address";

const scopeProblem = (scope: Scope, allowLoopback: boolean) =>
  scope === "public" || (scope === "loopback" && allowLoopback) ? null : PRIVATE_PROBLEM;

/**
 * What a resolved address (an A or AAAA answer: dotted quad or IPv6 text) says about a host:
 * null when public (or loopback while allowed), else the refusal.
 */
export function addressProblem(address: string, allowLoopback: boolean): string | null {
  const text = address.trim();
  let host: string;
  try {
    // The URL parser writes any spelling of the address the way hostScope reads it.
    host = new URL(text.includes(":") ? `http://[${text}]/` : `http://${text}/`).hostname;
  } catch {
    return PRIVATE_PROBLEM;
  }
  return scopeProblem(isIpLiteral(host) ? hostScope(host) : "private", allowLoopback);
}

/** Whether a URL's hostname (as the URL parser writes it) is an IP address, not a name. */
export const isIpLiteral = (hostname: string) =>
  hostname.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);

/** Whether a URL's hostname is a name that means loopback (localhost, *.localhost). */
export const isLoopbackName = (hostname: string) => {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
};

export const loopbackAllowed = (env: { PARLEY_ALLOW_LOOPBACK_WEBHOOKS?: string }) =>
  env.PARLEY_ALLOW_LOOPBACK_WEBHOOKS === "1";

type Scope = "public" | "loopback" | "private";

const LOCAL_SUFFIXES = [".local", ".internal", ".lan", ".home.arpa", ".intranet", ".corp"];

function hostScope(host: string): Scope {
  if (host.startsWith("[")) {
    const groups = ipv6Groups(host.slice(1, -1));
    return groups ? ipv6Scope(groups) : "private";
  }
  // The URL parser already turned 127.1, 0x7f.0.0.1 and 2130706433 into dotted quads.
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) {
    return ipv4Scope(v4.slice(1).map(Number));
  }
  const name = host.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) {
    return "loopback";
  }
  if (!name.includes(".") || LOCAL_SUFFIXES.some((s) => name.endsWith(s))) {
    return "private";
  }
  return "public";
}

function ipv4Scope([a = 0, b = 0, c = 0]: number[]): Scope {
  if (a === 127) {
    return "loopback";
  }
  const nonPublic =
    a === 0 || // "this network"
    a === 10 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, TEST-NET-1
    (a === 192 && b === 88 && c === 99) || // 6to4 relay
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2
    (a === 203 && b === 0 && c === 113) || // TEST-NET-3
    a >= 224; // multicast, reserved, broadcast
  return nonPublic ? "private" : "public";
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it, or null. */
function ipv6Groups(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) {
    return null;
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0] ?? "");
  const tail = halves.length === 2 ? parse(halves[1] ?? "") : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) {
    return null;
  }
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) {
    return null;
  }
  return groups.map((g) => Number.parseInt(g, 16));
}

function ipv6Scope(g: number[]): Scope {
  const [first = 0] = g;
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embeddedV4 = () => [g[6] ?? 0, g[7] ?? 0].flatMap((x) => [x >> 8, x & 0xff]);
  if (zeroPrefix(7) && g[7] === 1) {
    return "loopback"; // ::1
  }
  // IPv4-mapped ::ffff:a.b.c.d is the IPv4 address itself; NAT64 64:ff9b::a.b.c.d reaches it.
  if (zeroPrefix(5) && g[5] === 0xffff) {
    return ipv4Scope(embeddedV4());
  }
  if (first === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return ipv4Scope(embeddedV4());
  }
  const nonPublic =
    first <= 0x00ff || // ::/8: unspecified, IPv4-compatible, IPv4-translated (::ffff:0:a.b.c.d)…
    (first === 0x0064 && g[1] === 0xff9b) || // NAT64 local use 64:ff9b:1::/48
    first === 0x0100 || // discard-only 100::/64
    (first === 0x2001 && (g[1] ?? 0) < 0x0200) || // IETF protocol assignments, Teredo 2001::/32
    (first === 0x2001 && g[1] === 0x0db8) || // documentation
    first === 0x2002 || // 6to4 wraps an IPv4 address we cannot vouch for
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xffc0) === 0xfec0 || // site-local (deprecated)
    (first & 0xff00) === 0xff00; // multicast
  return nonPublic ? "private" : "public";
}

/**
 * The base of every mailed link: PUBLIC_URL as an absolute http(s) URL without credentials,
 * query or fragment, without its trailing slash; null when unset or malformed. Mailed links are
 * never built from a request's Host header, which any client can choose (issue 20).
 */
export function mailBaseUrl(raw: string | undefined): string | null {
  const text = raw?.trim() ?? "";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const plain = url.username === "" && url.password === "" && !url.search && !url.hash;
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname || !plain) {
    return null;
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}
