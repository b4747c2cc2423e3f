import type { Context } from "hono";
import type { PortalRow } from "../../db/schema";
import type { AppEnv } from "../../http/context";
import { createRouter } from "../../http/router";
import { mailBaseUrl } from "../../lib/public-url";
import { CLIENT_CACHE_CONTROL, cacheKey, EDGE_TTL, etagFor, notModified } from "./cache";
import { portalBaseUrl } from "./presenter";
import {
  findPortalByDomain,
  findPortalById,
  findPublicPortal,
  livePortalSlugs,
} from "./queries.portals";
import { domainHosts as domains } from "./service.domains";
import { publicNotFound, renderPublic, siteFor } from "./service.public";
import { countView } from "./views";

// Scripts never run on these pages (there are none); styles are inline; images may be anywhere.
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: http:; connect-src 'self'; form-action 'self'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
};

const wantsJson = (c: Context<AppEnv>) =>
  /application\/json/i.test(c.req.header("accept") ?? "") &&
  !/text\/html/i.test(c.req.header("accept") ?? "");

/**
 * Serves one public help-center path of `portal` (null or archived: 404). `prefix` is how
 * the portal is addressed here: `/hc/{slug}`, or "" on its custom domain.
 */
export async function servePortal(
  c: Context<AppEnv>,
  portal: PortalRow | undefined,
  prefix: string,
  path: string,
): Promise<Response> {
  const deps = c.var.deps;
  const url = new URL(c.req.url);
  if (!portal || portal.archived) {
    const res = publicNotFound(null);
    return new Response(res.body, {
      status: 404,
      headers: { "content-type": res.type, ...SECURITY_HEADERS },
    });
  }
  const json = wantsJson(c) || path.endsWith(".json");
  const variant = `${json ? "j" : "h"}${prefix === "" ? "d" : "p"}`;
  const etag = etagFor(portal, variant);
  const headers: Record<string, string> = {
    etag,
    "cache-control": CLIENT_CACHE_CONTROL,
    vary: "Accept",
    ...SECURITY_HEADERS,
  };
  if (json) {
    headers["access-control-allow-origin"] = "*";
  }
  const articleSlug = /^\/articles\/[^/]+$/.test(path);
  if (notModified(c.req.header("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  const cache = typeof caches === "undefined" ? null : caches.default;
  const key = cacheKey(url.origin, portal, prefix + path, url.search, variant);
  const hit = await cache?.match(key);
  if (hit) {
    const articleId = Number(hit.headers.get("x-hc-article") ?? 0);
    if (articleId > 0) {
      countView(deps.db, articleId, (w) => c.executionCtx.waitUntil(w));
    }
    const res = new Response(hit.body, hit);
    res.headers.set("cache-control", CLIENT_CACHE_CONTROL);
    // Today's security headers, not those of the day the copy was made.
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      res.headers.set(name, value);
    }
    res.headers.set("x-hc-cache", "hit");
    res.headers.delete("server-timing");
    return res;
  }
  const origin = url.origin;
  // Canonical URLs name the portal's own domain when it has one, however the page was reached.
  const base = portalBaseUrl(portal, origin);
  const started = performance.now();
  const result = await renderPublic(
    deps,
    portal,
    (locale, offered) => siteFor(portal, locale, prefix, base, origin, offered),
    path,
    url.searchParams,
    json,
  );
  if (result.status !== 200) {
    return new Response(result.body, {
      status: result.status,
      headers: {
        "content-type": result.type,
        ...SECURITY_HEADERS,
        ...(result.location
          ? { location: prefix + result.location, "cache-control": "no-store" }
          : {}),
      },
    });
  }
  headers["content-type"] = result.type;
  // Reads plus render (Workers freeze the clock during CPU work, so deployed this is I/O time).
  headers["server-timing"] = `render;dur=${(performance.now() - started).toFixed(1)}`;
  if (result.articleId !== undefined && articleSlug) {
    countView(deps.db, result.articleId, (w) => c.executionCtx.waitUntil(w));
  }
  if (cache) {
    const stored = new Response(result.body, {
      headers: {
        ...headers,
        "cache-control": `public, s-maxage=${EDGE_TTL}`,
        ...(result.articleId !== undefined && articleSlug
          ? { "x-hc-article": String(result.articleId) }
          : {}),
      },
    });
    c.executionCtx.waitUntil(cache.put(key, stored));
  }
  return new Response(result.body, { status: 200, headers: { ...headers, "x-hc-cache": "miss" } });
}

/** `/hc/{portal_slug}/…`: every portal on the service's own host. */
const servePath = async (c: Context<AppEnv>) => {
  const slug = c.req.param("portal_slug") ?? "";
  const portal = await findPublicPortal(c.var.deps.db, slug);
  // The path after `/hc/{slug}`, still percent-encoded as sent (renderPublic decodes segments).
  const pathname = new URL(c.req.url).pathname;
  const at = pathname.indexOf("/", "/hc/".length);
  const rest = at === -1 ? "" : pathname.slice(at);
  return servePortal(c, portal, `/hc/${encodeURIComponent(slug)}`, rest);
};

/** The service host's robots.txt: the API is not for crawlers, every live portal's sitemap is. */
const robots = async (c: Context<AppEnv>) => {
  const origin = new URL(c.req.url).origin;
  const live = await livePortalSlugs(c.var.deps.db, 1000);
  const sitemaps = live.map(
    (p) => `Sitemap: ${origin}/hc/${encodeURIComponent(p.slug)}/sitemap.xml\n`,
  );
  const body = `User-agent: *\nAllow: /hc/\nDisallow: /api/\nDisallow: /public/\nDisallow: /platform/\nDisallow: /auth/\n${sitemaps.join("")}`;
  return c.body(body, 200, {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "public, max-age=300",
  });
};

export const helpCenterPublicRoutes = createRouter<AppEnv>()
  .get("/robots.txt", robots)
  .get("/hc/:portal_slug", servePath)
  .get("/hc/:portal_slug/*", servePath);

/**
 * The portal whose verified custom domain is the request's Host, if any. The service's own
 * host (PUBLIC_URL's) is never a portal's, whatever the table says.
 */
export async function portalForHost(c: Context<AppEnv>): Promise<PortalRow | undefined> {
  const host = (c.req.header("host") ?? "").toLowerCase().replace(/:\d+$/, "");
  if (!host.includes(".") || /^[\d.]+$/.test(host) || host === serviceHost(c.env.PUBLIC_URL)) {
    return undefined;
  }
  const known = domains.get(host);
  if (known === null) {
    return undefined;
  }
  if (known !== undefined) {
    const portal = await findPortalById(c.var.deps.db, known);
    // Still that portal's and verified: served. Otherwise the domain moved (a takeover, a
    // change): look again rather than trust the remembered answer.
    if (portal?.customDomain === host && portal.domainVerifiedAt !== null) {
      return portal;
    }
  }
  const portal = await findPortalByDomain(c.var.deps.db, host);
  domains.set(host, portal?.id ?? null);
  return portal;
}

const serviceHost = (publicUrl: string | undefined) => {
  const base = mailBaseUrl(publicUrl);
  return base ? new URL(base).hostname : null;
};
