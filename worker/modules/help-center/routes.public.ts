import type { Context } from "hono";
import type { PortalRow } from "../../db/schema";
import type { AppEnv } from "../../http/context";
import { createRouter } from "../../http/router";
import { mailBaseUrl } from "../../lib/public-url";
import { widgetScript } from "../inboxes/presenter";
import { CLIENT_CACHE_CONTROL, cacheKey, EDGE_TTL, etagFor, notModified } from "./cache";
import { pageHeaders } from "./headers";
import { portalBaseUrl } from "./presenter";
import {
  findPortalByDomain,
  findPortalById,
  findPublicPortal,
  findWidgetInbox,
  livePortalSlugs,
} from "./queries.portals";
import { FEEDBACK_SCRIPT, FEEDBACK_SCRIPT_PATH } from "./render/feedback";
import { serveFeedback } from "./routes.feedback.public";
import { domainHosts as domains } from "./service.domains";
import { publicNotFound, renderPublic, siteFor } from "./service.public";
import { countView } from "./views";

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
      headers: { "content-type": res.type, ...pageHeaders(url.origin, false) },
    });
  }
  // The portal's linked inbox (always a web widget: the portal rules) chats on every page.
  const securityHeaders = pageHeaders(url.origin, portal.inboxId !== null);
  const json = wantsJson(c) || path.endsWith(".json");
  const variant = `${json ? "j" : "h"}${prefix === "" ? "d" : "p"}`;
  const etag = etagFor(portal, variant);
  const headers: Record<string, string> = {
    etag,
    "cache-control": CLIENT_CACHE_CONTROL,
    vary: "Accept",
    ...securityHeaders,
  };
  if (json) {
    headers["access-control-allow-origin"] = "*";
  }
  // An article page view; not the page a vote leads back to (`?feedback=`), seen already.
  const articleSlug = /^\/articles\/[^/]+$/.test(path) && !url.searchParams.has("feedback");
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
    for (const [name, value] of Object.entries(securityHeaders)) {
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
  const inbox =
    portal.inboxId === null
      ? undefined
      : await findWidgetInbox(deps.db, portal.accountId, portal.inboxId);
  // The inbox's embed snippet, as any site has it: data-color paints the launcher in the
  // inbox's colour from the first paint, without a read of the page's storage first.
  const chat = inbox?.channelType === "Channel::WebWidget" ? widgetScript(origin, inbox) : null;
  const result = await renderPublic(
    deps,
    portal,
    (locale, offered) => siteFor(portal, locale, prefix, base, origin, offered, chat),
    path,
    url.searchParams,
    json,
  );
  if (result.status !== 200) {
    return new Response(result.body, {
      status: result.status,
      headers: {
        "content-type": result.type,
        ...securityHeaders,
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

/** `POST /hc/{portal_slug}/articles/{slug}/feedback`: "Was this helpful?" (routes.feedback.public.ts). */
const feedbackPath = async (c: Context<AppEnv>) => {
  const slug = c.req.param("portal_slug") ?? "";
  const portal = await findPublicPortal(c.var.deps.db, slug);
  const at = new URL(c.req.url).pathname.split("/");
  return serveFeedback(c, portal, `/hc/${encodeURIComponent(slug)}`, at[4] ?? "");
};

/** The pages' one script: the same for every portal, cached a day (its URL is in their CSP). */
const feedbackScript = (c: Context<AppEnv>) =>
  c.body(FEEDBACK_SCRIPT, 200, {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": "public, max-age=86400",
    "x-content-type-options": "nosniff",
  });

export const helpCenterPublicRoutes = createRouter<AppEnv>()
  .get("/robots.txt", robots)
  // Before /hc/:portal_slug: a dot is never in a portal slug, so no portal is hidden by it.
  .get(FEEDBACK_SCRIPT_PATH, feedbackScript)
  .get("/hc/:portal_slug", servePath)
  .get("/hc/:portal_slug/*", servePath)
  .post("/hc/:portal_slug/articles/:article_slug/feedback", feedbackPath);

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
