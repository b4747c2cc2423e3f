/**
 * File types from their first bytes (magic numbers), never from the client's claim, and the
 * allow-list of what may be served inline. Anything not recognised is
 * `application/octet-stream`, which is only ever served as a download.
 */

/** How many leading bytes `sniffContentType` looks at. */
export const SNIFF_BYTES = 64;

export const OCTET_STREAM = "application/octet-stream";

/** Raster images: the only images served inline (never SVG: it can carry script). */
export const RASTER_IMAGE_TYPES = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
] as const;

/** Audio and video `sniffContentType` recognises. */
export const MEDIA_TYPES = [
  "audio/mpeg",
  "audio/mp4",
  "audio/ogg",
  "audio/wav",
  "video/mp4",
  "video/quicktime",
  "video/webm",
  "video/x-matroska",
] as const;

/** Served `inline` with their own type; everything else is an octet-stream attachment. */
export const INLINE_TYPES: readonly string[] = [...RASTER_IMAGE_TYPES, ...MEDIA_TYPES];

/** The bare media type, lowercased, without parameters (`Image/PNG; x=y` → `image/png`). */
export const essenceOf = (contentType: string | undefined | null) =>
  (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

export const isInlineType = (contentType: string | undefined | null) =>
  INLINE_TYPES.includes(essenceOf(contentType));

export const isRasterImage = (contentType: string | undefined | null) =>
  (RASTER_IMAGE_TYPES as readonly string[]).includes(essenceOf(contentType));

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0) {
  if (bytes.length < at + signature.length) {
    return false;
  }
  return signature.every((b, i) => bytes[at + i] === b);
}

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  bytes.length < to ? "" : String.fromCharCode(...bytes.subarray(from, to));

const FTYP_VIDEO_BRANDS = new Set([
  "isom",
  "iso2",
  "iso3",
  "iso4",
  "iso5",
  "iso6",
  "mp41",
  "mp42",
  "mp71",
  "avc1",
  "dash",
  "M4V ",
  "M4VH",
  "M4VP",
  "mmp4",
  "3gp4",
  "3gp5",
  "3gp6",
  "3g2a",
]);
const FTYP_AUDIO_BRANDS = new Set(["M4A ", "M4B ", "M4P "]);

/** ISO base media (`....ftyp<brand>`): AVIF, MP4 audio or video, QuickTime; else unknown. */
function sniffFtyp(bytes: Uint8Array): string {
  const major = ascii(bytes, 8, 12);
  const boxSize = Math.min(
    bytes.length,
    ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0),
  );
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= boxSize; at += 4) {
    compatible.push(ascii(bytes, at, at + 4));
  }
  if (major === "avif" || major === "avis") {
    return "image/avif";
  }
  // HEIF containers (mif1, msf1) are AVIF when they list it; HEIC is not served inline.
  if (
    (major === "mif1" || major === "msf1") &&
    compatible.some((b) => b === "avif" || b === "avis")
  ) {
    return "image/avif";
  }
  if (FTYP_AUDIO_BRANDS.has(major)) {
    return "audio/mp4";
  }
  if (major === "qt  ") {
    return "video/quicktime";
  }
  if (FTYP_VIDEO_BRANDS.has(major)) {
    return "video/mp4";
  }
  return OCTET_STREAM;
}

/** An MPEG audio frame header: 11 sync bits, a valid version and a layer (not AAC's 00). */
function isMpegFrame(bytes: Uint8Array) {
  const [b0, b1] = [bytes[0] ?? 0, bytes[1] ?? 0];
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  return b0 === 0xff && (b1 & 0xe0) === 0xe0 && version !== 0b01 && layer !== 0b00;
}

/**
 * The content type of a file from its first bytes (at least `SNIFF_BYTES` when the file is that
 * long): PNG, JPEG, GIF, WebP, AVIF, MP4/M4A, QuickTime, WebM/Matroska, Ogg, MP3, WAV.
 * Anything else, SVG and HTML included, is `application/octet-stream`.
 */
export function sniffContentType(bytes: Uint8Array): string {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return "image/png";
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    return "image/jpeg";
  }
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") {
    return "image/gif";
  }
  if (ascii(bytes, 0, 4) === "RIFF") {
    const form = ascii(bytes, 8, 12);
    if (form === "WEBP") {
      return "image/webp";
    }
    if (form === "WAVE") {
      return "audio/wav";
    }
    return OCTET_STREAM;
  }
  if (ascii(bytes, 4, 8) === "ftyp") {
    return sniffFtyp(bytes);
  }
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) {
    // EBML: the DocType names WebM or Matroska.
    return ascii(bytes, 0, Math.min(bytes.length, SNIFF_BYTES)).includes("webm")
      ? "video/webm"
      : "video/x-matroska";
  }
  if (ascii(bytes, 0, 4) === "OggS") {
    return "audio/ogg";
  }
  if (ascii(bytes, 0, 3) === "ID3" || isMpegFrame(bytes)) {
    return "audio/mpeg";
  }
  return OCTET_STREAM;
}
