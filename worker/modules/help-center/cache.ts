import type { PortalRow } from "../../db/schema";

/**
 * Public pages are cached in the Workers Cache API under a key holding the portal's
 * `content_version`, which every change to the portal, its categories or its articles bumps
 * in the same D1 batch. So a change is a purge in every data centre at once: the next request
 * reads the new version (one indexed row, the portal lookup every page needs anyway) and
 * misses. Old entries are never read again and age out.
 */
export const EDGE_TTL = 86_400;

/** What browsers and shared caches are told: always revalidate (cheap: 304 on the ETag). */
export const CLIENT_CACHE_CONTROL = "public, max-age=0, must-revalidate, s-maxage=60";

/**
 * The markup's own version: bump it with any change to what a page looks like, so deployed
 * pages are not served from copies (or ETags) made by the previous code.
 */
export const RENDER_VERSION = 5;

export const etagFor = (portal: PortalRow, variant: string) =>
  `W/"hc-${portal.id}-${portal.contentVersion}-r${RENDER_VERSION}-${variant}"`;

/** True when `If-None-Match` names the current ETag (or `*`). */
export function notModified(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) {
    return false;
  }
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag.replace(/^W\//, "") === bare;
  });
}

export function cacheKey(
  origin: string,
  portal: PortalRow,
  path: string,
  search: string,
  variant: string,
) {
  const key = new URL(
    `${origin}/__hc-cache/r${RENDER_VERSION}/${portal.id}/${portal.contentVersion}${path}`,
  );
  key.search = search;
  key.searchParams.set("__variant", variant);
  return new Request(key.toString());
}
