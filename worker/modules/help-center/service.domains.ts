import type { PortalRow } from "../../db/schema";
import type { Deps } from "../../events/deps";
import { ApiError, invalidField } from "../../lib/errors";
import { secureToken } from "../../lib/ids";
import { isIpLiteral, isLoopbackName, mailBaseUrl } from "../../lib/public-url";
import { lookupTxt } from "../../lib/resolve-host";
import { TtlCache } from "../../lib/ttl-cache";
import type { NewPortal } from "./queries.portals";
import { findPortalById, verifyDomainStatements } from "./queries.portals";

/**
 * Custom domains (docs/help-center.md): a portal's `custom_domain` is a claim until its account
 * proves the domain is theirs by publishing the portal's token as a TXT record, as hosted help
 * centers do. Only a verified domain is served; a pending claim blocks nobody, and the latest
 * verification of a domain wins it.
 */

// Host -> id of the portal that holds it verified, remembered briefly (routes.public.ts): custom
// domains change rarely, and a miss is the common case for every other host. The portal row is
// always read fresh. A verification forgets its host here; other isolates learn within 30 s.
export const domainHosts = new TtlCache<number | null>(30_000, 500);

/** Where the token is published: `_parley-challenge.<domain>`, TXT. */
export const challengeName = (domain: string) => `_parley-challenge.${domain}`;

const hostOf = (url: string | null) => (url ? new URL(url).hostname.toLowerCase() : "");

/**
 * Why `domain` can never be a portal's, or null: the service's own host (PUBLIC_URL's; without
 * it, the host this request came to — not at verification, so a verify sent through the
 * custom domain itself still works), loopback names and IP literals, Cloudflare's workers.dev,
 * and RESERVED_DOMAINS (`name` exactly, `*.name` for every name under it).
 */
export function reservedDomainProblem(
  deps: Deps,
  domain: string,
  { requestHost = true } = {},
): string | null {
  const name = domain.toLowerCase().replace(/\.$/, "");
  const publicUrl = mailBaseUrl(deps.env.PUBLIC_URL);
  const own = publicUrl ? hostOf(publicUrl) : requestHost ? hostOf(deps.origin || null) : "";
  if (own !== "" && name === own) {
    return "is this service's own host";
  }
  if (isLoopbackName(name) || isIpLiteral(name)) {
    return "must be a public host name, not a loopback name or an IP address";
  }
  const reserved = ["*.workers.dev", ...(deps.env.RESERVED_DOMAINS ?? "").split(",")]
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
  const hit = reserved.some((entry) =>
    entry.startsWith("*.") ? name.endsWith(entry.slice(1)) : name === entry,
  );
  return hit ? "is reserved for the service" : null;
}

/**
 * The columns of setting `custom_domain` to `domain`: a new domain is a new pending claim with
 * a token of its own; the same domain changes nothing (verified stays verified); null clears it.
 */
export function domainClaim(
  deps: Deps,
  current: PortalRow | null,
  domain: string | null,
): Partial<NewPortal> {
  if (domain === (current?.customDomain ?? null)) {
    return {};
  }
  if (domain === null) {
    return { customDomain: null, domainToken: null, domainVerifiedAt: null };
  }
  const problem = reservedDomainProblem(deps, domain);
  if (problem) {
    throw invalidField("custom_domain", problem);
  }
  return { customDomain: domain, domainToken: secureToken(), domainVerifiedAt: null };
}

/**
 * Looks the portal's token up at `_parley-challenge.<domain>` (DNS over HTTPS, DOH_RESOLVER_URL
 * or Cloudflare's) and, when it is there, makes the domain the portal's: any other portal that
 * held it verified goes back to pending (it keeps its claim and token, and may verify again).
 * Not found, or the resolver failed: 422, and nothing changes (a verified portal stays so).
 */
export async function verifyPortalDomain(deps: Deps, portal: PortalRow): Promise<PortalRow> {
  const domain = portal.customDomain;
  if (!domain || !portal.domainToken) {
    throw invalidField("custom_domain", "is not set: set one, publish its token, then verify");
  }
  const problem = reservedDomainProblem(deps, domain, { requestHost: false });
  if (problem) {
    throw invalidField("custom_domain", problem);
  }
  const record = challengeName(domain);
  let values: string[];
  try {
    values = await lookupTxt(deps.outbound, record, deps.env.DOH_RESOLVER_URL);
  } catch (err) {
    deps.log.warn("custom domain check failed", { domain, error: err });
    throw invalidField(
      "custom_domain",
      `could not be checked (the DNS resolver did not answer): try again later`,
    );
  }
  if (!values.includes(portal.domainToken)) {
    throw invalidField(
      "custom_domain",
      `is not verified: no TXT record ${record} with this portal's token was found (new records can take a few minutes to be seen)`,
    );
  }
  const results = await deps.db.batch(
    verifyDomainStatements(deps.db, portal.id, domain, deps.now()),
  );
  for (const loser of results[0]) {
    deps.log.info("custom domain taken over by a newer verification", {
      domain,
      portal_id: portal.id,
      previous_portal_id: loser.id,
    });
  }
  domainHosts.delete(domain);
  const row = await findPortalById(deps.db, portal.id);
  if (!row) {
    throw new ApiError("not_found");
  }
  return row;
}
