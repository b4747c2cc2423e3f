import type { Outbound } from "./outbound";
import { addressProblem, isIpLiteral, isLoopbackName } from "./public-url";

/** Cloudflare's DNS over HTTPS, JSON form: a Worker has no resolver of its own. */
export const DOH_ENDPOINT = "https://cloudflare-dns.com/dns-query";

const DOH_TIMEOUT_MS = 5_000;
const RECORD_TYPES = { A: 1, AAAA: 28, TXT: 16 } as const;

/**
 * What resolving a receiver's host said: every address public (`ok`), one of them not
 * (`refused`, for good), or no answer to go by (`unresolved`: the resolver failed, timed out,
 * answered SERVFAIL or named no address; worth trying again later).
 */
export type HostCheck =
  | { kind: "ok" }
  | { kind: "refused"; problem: string }
  | { kind: "unresolved"; error: string };

type DohAnswer = { Status?: number; Answer?: { type?: number; data?: string }[] };

/**
 * One DNS-over-HTTPS JSON query (`endpoint`, Cloudflare's unless told): the answer records of
 * `type`, none for NXDOMAIN; throws when the resolver fails, times out or answers an error.
 */
async function dohQuery(
  outbound: Outbound,
  name: string,
  type: "A" | "AAAA" | "TXT",
  endpoint = DOH_ENDPOINT,
): Promise<string[]> {
  const url = new URL(endpoint);
  url.searchParams.set("name", name);
  url.searchParams.set("type", type);
  const res = await outbound(
    new Request(url, {
      headers: { accept: "application/dns-json" },
      signal: AbortSignal.timeout(DOH_TIMEOUT_MS),
    }),
  );
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`resolver answered HTTP ${res.status}`);
  }
  const json = (await res.json()) as DohAnswer;
  // 0 NOERROR, 3 NXDOMAIN (no records); anything else (SERVFAIL, REFUSED…) says nothing.
  if (json.Status !== 0 && json.Status !== 3) {
    throw new Error(`resolver answered DNS status ${String(json.Status)}`);
  }
  const code = RECORD_TYPES[type];
  return (json.Answer ?? [])
    .filter((r) => r.type === code && typeof r.data === "string")
    .map((r) => r.data as string);
}

/**
 * The TXT records of `name`, each as its text: a record's quoted character-strings (as DoH JSON
 * writes them, `"abc" "def"` for a long one) are joined, unquoted data is taken as it is.
 */
export async function lookupTxt(
  outbound: Outbound,
  name: string,
  endpoint?: string,
): Promise<string[]> {
  const records = await dohQuery(outbound, name, "TXT", endpoint || DOH_ENDPOINT);
  return records.map((data) => {
    const parts = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
      (m[1] ?? "").replace(/\\(.)/g, "$1"),
    );
    return parts.length > 0 ? parts.join("") : data.trim();
  });
}

/**
 * Resolves the URL's host name (A and AAAA, through `outbound`) and refuses it when any address
 * is private, loopback or link-local, so a public-looking name (127.0.0.1.nip.io) cannot point a
 * delivery inward. IP literals were judged by publicUrlProblem already and are not looked up; so
 * are loopback names while PARLEY_ALLOW_LOOPBACK_WEBHOOKS=1 admits them. The check narrows the
 * hole without closing it (the platform's fetch resolves again, so a name that changes its
 * answers in between is not caught); Cloudflare's egress does not reach private networks anyway.
 */
export async function checkResolvedHost(
  outbound: Outbound,
  rawUrl: string,
  allowLoopback: boolean,
): Promise<HostCheck> {
  const host = new URL(rawUrl).hostname;
  if (isIpLiteral(host) || (allowLoopback && isLoopbackName(host))) {
    return { kind: "ok" };
  }
  const name = host.replace(/\.$/, "");
  let addresses: string[];
  try {
    const [v4, v6] = await Promise.all([
      dohQuery(outbound, name, "A"),
      dohQuery(outbound, name, "AAAA"),
    ]);
    addresses = [...v4, ...v6];
  } catch (err) {
    const e = err as Error;
    const why =
      e?.name === "TimeoutError" || e?.name === "AbortError"
        ? `timed out after ${DOH_TIMEOUT_MS / 1000} s`
        : String(e?.message ?? err);
    return { kind: "unresolved", error: `dns lookup of ${name} failed: ${why}` };
  }
  if (addresses.length === 0) {
    return { kind: "unresolved", error: `dns lookup of ${name} found no address` };
  }
  for (const address of addresses) {
    const problem = addressProblem(address, allowLoopback);
    if (problem) {
      return { kind: "refused", problem: `host ${name} resolves to ${address}: ${problem}` };
    }
  }
  return { kind: "ok" };
}
