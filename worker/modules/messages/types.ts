import type { AttachmentFileType } from "../../db/schema";
import { essenceOf, isInlineType, isRasterImage } from "../../lib/sniff";

/** Chatwoot's integer message types. */
export const MESSAGE_TYPE_CODES = { incoming: 0, outgoing: 1, activity: 2, template: 3 } as const;

/** The names by code, as webhook payloads spell message_type. */
export const MESSAGE_TYPE_NAMES = ["incoming", "outgoing", "activity", "template"] as const;

/**
 * An attachment's `file_type` from its stored (sniffed) content type, through the same
 * allow-list as serving: only raster images are `image` (never SVG), only recognised audio
 * and video are `audio`/`video`; everything else is a `file`.
 */
export function fileTypeOf(contentType: string): AttachmentFileType {
  const type = essenceOf(contentType);
  if (isRasterImage(type)) {
    return "image";
  }
  if (isInlineType(type) && type.startsWith("audio/")) {
    return "audio";
  }
  if (isInlineType(type) && type.startsWith("video/")) {
    return "video";
  }
  return "file";
}
