import { essenceOf, isInlineType, OCTET_STREAM } from "../../lib/sniff";
import { dispositionFileName } from "./storage";

/**
 * Every file response's security headers. `sandbox` makes any document the file could become
 * (an old SVG or HTML row, a browser that ignores the type) an opaque origin with no script;
 * `default-src 'none'` lets it load nothing. CORP is `cross-origin`: file URLs are public
 * capabilities with no credentials, and they are shown by pages on other origins: agent
 * clients of the account API (avatars, thumbnails) and, with a separate files hostname, the
 * widget's frame itself; `same-origin` would break both and protect nothing the URL does not.
 */
export const FILE_SECURITY_HEADERS = {
  "content-security-policy": "sandbox; default-src 'none'",
  "x-content-type-options": "nosniff",
  "cross-origin-resource-policy": "cross-origin",
} as const;

/** The file name in a stored Content-Disposition (`filename="<percent-encoded>"`). */
function storedFileName(disposition: string | undefined): string | null {
  const match = /filename="([^"]*)"/.exec(disposition ?? "");
  if (!match?.[1]) {
    return null;
  }
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/**
 * The headers a stored file is served with, decided from its stored type through the inline
 * allow-list (lib/sniff.ts), whatever was stored with it: raster images, audio and video inline
 * with their type; anything else (old SVG or HTML rows included) a download of
 * `application/octet-stream`.
 */
export function fileHeaders(meta: R2HTTPMetadata | undefined, fallbackName: string): Headers {
  const type = essenceOf(meta?.contentType);
  const inline = isInlineType(type);
  const name = storedFileName(meta?.contentDisposition) ?? fallbackName;
  const headers = new Headers(FILE_SECURITY_HEADERS);
  headers.set("content-type", inline ? type : OCTET_STREAM);
  headers.set(
    "content-disposition",
    `${inline ? "inline" : "attachment"}; ${dispositionFileName(name)}`,
  );
  headers.set("cache-control", "public, max-age=31536000, immutable");
  return headers;
}
