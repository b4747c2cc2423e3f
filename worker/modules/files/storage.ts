import type { Bindings } from "../../env";
import { ApiError, invalidField } from "../../lib/errors";
import { isInlineType, RASTER_IMAGE_TYPES, SNIFF_BYTES, sniffContentType } from "../../lib/sniff";

/** Uploads are capped like Chatwoot's attachments (40 MB). */
export const MAX_UPLOAD_BYTES = 40 * 1024 * 1024;

/** What an avatar may be: raster images only (decided from the bytes, never SVG). */
export const IMAGE_TYPES = RASTER_IMAGE_TYPES;

export type StoredFile = {
  key: string;
  fileName: string;
  contentType: string;
  size: number;
};

/** Public path of a stored file; keys are random, so the path is the capability. */
export const filePath = (key: string) => `/files/${key}`;

export const fileUrl = (origin: string, key: string) => `${origin}${filePath(key)}`;

function extensionOf(name: string) {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return match ? `.${match[1]?.toLowerCase()}` : "";
}

/** `filename="…"` and `filename*=UTF-8''…` for a Content-Disposition header. */
export function dispositionFileName(name: string) {
  const encoded = encodeURIComponent(name).replace(
    /['()*!]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `filename="${encoded}"; filename*=UTF-8''${encoded}`;
}

/**
 * Stores an uploaded file in R2 under `{accountId}/{folder}/{uuid}{ext}`.
 * The stored content type is sniffed from the file's first bytes, never the client's claim
 * (`application/octet-stream` when not recognised; see lib/sniff.ts).
 * `field` names the form field in the 422 when the file is refused.
 */
export async function storeUpload(
  env: Bindings,
  accountId: number,
  folder: string,
  file: File,
  opts: { field: string; allowedTypes?: readonly string[] },
): Promise<StoredFile> {
  if (file.size === 0) {
    throw invalidField(opts.field, "file is empty", `${opts.field} is empty`);
  }
  if (file.size > MAX_UPLOAD_BYTES) {
    throw new ApiError("payload_too_large", `${opts.field} is larger than 40 MB`, [
      { path: opts.field, message: "file is larger than 40 MB" },
    ]);
  }
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  const contentType = sniffContentType(head);
  if (opts.allowedTypes && !opts.allowedTypes.includes(contentType)) {
    throw invalidField(
      opts.field,
      `content type ${contentType} is not allowed`,
      `${opts.field} must be one of ${opts.allowedTypes.join(", ")}`,
    );
  }
  const key = `${accountId}/${folder}/${crypto.randomUUID()}${extensionOf(file.name)}`;
  await env.FILES.put(key, file.stream(), {
    httpMetadata: {
      contentType,
      contentDisposition: `${isInlineType(contentType) ? "inline" : "attachment"}; ${dispositionFileName(file.name || "file")}`,
    },
  });
  return { key, fileName: file.name || "file", contentType, size: file.size };
}

export const deleteStored = (env: Bindings, keys: string[]) =>
  keys.length > 0 ? env.FILES.delete(keys) : Promise.resolve();
